// SPDX-License-Identifier: GPL-2.0
/* tasklet_disable_in_atomic() under spin_lock_irqsave(): pitfall 2c. */
#include <linux/interrupt.h>

struct card {
	spinlock_t lock;
	struct tasklet_struct task;
};

static void card_close(struct card *c)
{
	unsigned long flags;

	spin_lock_irqsave(&c->lock, flags);
	tasklet_disable_in_atomic(&c->task);
	spin_unlock_irqrestore(&c->lock, flags);
}
