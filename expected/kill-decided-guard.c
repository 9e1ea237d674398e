// SPDX-License-Identifier: GPL-2.0
/*
 * rt2x00's shape: the item is set up only when the chip has the callback,
 * and removal kills it unconditionally. tasklet_kill() of a zeroed tasklet
 * does nothing; cancel_work_sync() of a work item never initialised WARNs,
 * so the decision gives the kill the init's condition.
 */
#include <linux/interrupt.h>

struct chip_ops {
	void (*txstatus)(struct work_struct *t);
};

struct chip {
	const struct chip_ops *ops;
	struct work_struct txstatus;
};

static void chip_init(struct chip *c)
{
	if (c->ops->txstatus)
		INIT_WORK(&c->txstatus, c->ops->txstatus);
}

static void chip_remove_dev(struct chip *c)
{
	if (c->ops->txstatus)
		cancel_work_sync(&c->txstatus);
}
