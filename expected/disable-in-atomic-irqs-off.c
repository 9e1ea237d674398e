// SPDX-License-Identifier: GPL-2.0
/*
 * tasklet_disable_in_atomic() with interrupts off (the shape of
 * pci-hyperv's hv_compose_msi_msg(), called under the irq descriptor lock):
 * the callback must not run while the channel is polled by hand, and the
 * caller may neither sleep nor have interrupts turned on.
 */
#include <linux/interrupt.h>
#include <linux/spinlock.h>

struct chan {
	spinlock_t lock;
	struct work_struct callback_event;
	bool done;
};

static void chan_poll(struct chan *c)
{
	c->done = true;
}

static void chan_event(struct work_struct *work)
{
	struct chan *c = from_work(c, work, callback_event);

	chan_poll(c);
}

static void chan_init(struct chan *c)
{
	spin_lock_init(&c->lock);
	INIT_WORK(&c->callback_event, chan_event);
}

static void chan_compose(struct chan *c)
{
	unsigned long flags;

	spin_lock_irqsave(&c->lock, flags);
	disable_work(&c->callback_event);
	/* wait without sleeping for a running callback to finish */
	while (work_busy(&c->callback_event) & WORK_BUSY_RUNNING) {
		if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
			local_bh_disable();
			local_bh_enable();
			continue;
		}
		cpu_relax();
	}
	while (!c->done)
		chan_poll(c);
	enable_and_queue_work(system_bh_wq, &c->callback_event);
	spin_unlock_irqrestore(&c->lock, flags);
}

static void chan_kick(struct chan *c)
{
	queue_work(system_bh_wq, &c->callback_event);
}
