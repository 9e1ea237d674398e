// SPDX-License-Identifier: GPL-2.0
/*
 * tasklet_disable() as the one statement of a scoped_guard(spinlock_irq)
 * with no braces: the lock is held for that statement, and
 * disable_work_sync() may sleep.
 */
#include <linux/cleanup.h>
#include <linux/interrupt.h>
#include <linux/spinlock.h>

struct uart {
	struct tasklet_struct tx_tasklet;
	spinlock_t lock;
};

static void uart_tx(struct tasklet_struct *t)
{
}

static void uart_init(struct uart *u)
{
	tasklet_setup(&u->tx_tasklet, uart_tx);
}

static void uart_pause(struct uart *u)
{
	scoped_guard(spinlock_irq, &u->lock)
		tasklet_disable(&u->tx_tasklet);
}
