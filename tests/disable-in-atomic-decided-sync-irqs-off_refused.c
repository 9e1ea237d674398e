// SPDX-License-Identifier: GPL-2.0
/*
 * A decision makes tasklet_disable_in_atomic() disable_work_sync(), but
 * the call follows a local_irq_save() of its own function (a console
 * write that keeps the rx tasklet off while it pushes characters out):
 * disable_work_sync() takes the pool lock with raw_spin_lock_irq() and
 * would turn interrupts back on, so the lock check refuses the file
 * whatever the decision says.
 */
#include <linux/console.h>
#include <linux/interrupt.h>
#include <linux/io.h>

struct uport {
	void __iomem *base;
	struct tasklet_struct rx_task;
	unsigned int rx_count;
};

static struct uport the_port;

static void uport_rx(struct tasklet_struct *t)
{
	struct uport *up = from_tasklet(up, t, rx_task);

	up->rx_count++;
}

static void uport_console_write(struct console *co, const char *s, unsigned int n)
{
	struct uport *up = &the_port;
	unsigned long flags;

	local_irq_save(flags);
	tasklet_disable_in_atomic(&up->rx_task);
	while (n--)
		writeb(*s++, up->base);
	tasklet_enable(&up->rx_task);
	local_irq_restore(flags);
}

static irqreturn_t uport_interrupt(int irq, void *dev_id)
{
	struct uport *up = dev_id;

	tasklet_schedule(&up->rx_task);
	return IRQ_HANDLED;
}

static void uport_init_one(void)
{
	tasklet_setup(&the_port.rx_task, uport_rx);
}
