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
	struct tasklet_struct callback_event;
	bool done;
};

static void chan_poll(struct chan *c)
{
	c->done = true;
}

static void chan_event(struct tasklet_struct *t)
{
	struct chan *c = from_tasklet(c, t, callback_event);

	chan_poll(c);
}

static void chan_init(struct chan *c)
{
	spin_lock_init(&c->lock);
	tasklet_setup(&c->callback_event, chan_event);
}

static void chan_compose(struct chan *c)
{
	unsigned long flags;

	spin_lock_irqsave(&c->lock, flags);
	tasklet_disable_in_atomic(&c->callback_event);
	while (!c->done)
		chan_poll(c);
	tasklet_enable(&c->callback_event);
	spin_unlock_irqrestore(&c->lock, flags);
}

static void chan_kick(struct chan *c)
{
	tasklet_schedule(&c->callback_event);
}
