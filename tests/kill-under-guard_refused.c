// SPDX-License-Identifier: GPL-2.0
/*
 * tasklet_kill() in the scope of guard(spinlock_irqsave): the lock is
 * held, interrupts off, to the end of the function, early return or not.
 * cancel_work_sync() would sleep there and turn interrupts back on.
 */
#include <linux/cleanup.h>
#include <linux/interrupt.h>
#include <linux/spinlock.h>

struct port {
	struct tasklet_struct rx_tasklet;
	spinlock_t lock;
	int running;
};

static void port_rx(struct tasklet_struct *t)
{
}

static void port_open(struct port *p)
{
	tasklet_setup(&p->rx_tasklet, port_rx);
}

static void port_stop(struct port *p)
{
	guard(spinlock_irqsave)(&p->lock);
	if (!p->running)
		return;
	p->running = 0;
	tasklet_kill(&p->rx_tasklet);
}
