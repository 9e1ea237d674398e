// SPDX-License-Identifier: GPL-2.0-only
/*
 * dtm_legacy: a test module in the shape of the out-of-tree drivers that
 * still use the old tasklet API: tasklet_init() with unsigned long data,
 * one item scheduled from an interrupt, a disable/enable pair around a
 * reset, and the kills in the module's exit.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include "dtm.h"

static struct dtm_dev *dtm;

static void dtm_evt_tasklet(unsigned long data)
{
	struct dtm_dev *dev = (struct dtm_dev *)data;

	dev->events++;
}

static irqreturn_t dtm_isr(int irq, void *arg)
{
	struct dtm_dev *dev = arg;

	dtm_rx_kick(dev);
	tasklet_hi_schedule(&dev->evt_tasklet);
	return IRQ_HANDLED;
}

static void dtm_reset(struct dtm_dev *dev)
{
	tasklet_disable(&dev->rx_tasklet);
	dev->rx_pending = 0;
	tasklet_enable(&dev->rx_tasklet);
}

static int __init dtm_init(void)
{
	dtm = kzalloc(sizeof(*dtm), GFP_KERNEL);
	if (!dtm)
		return -ENOMEM;
	spin_lock_init(&dtm->lock);
	tasklet_init(&dtm->rx_tasklet, dtm_rx_tasklet, (unsigned long)dtm);
	tasklet_init(&dtm->evt_tasklet, dtm_evt_tasklet, (unsigned long)dtm);
	dtm_reset(dtm);
	(void)dtm_isr;
	return 0;
}

static void __exit dtm_exit(void)
{
	tasklet_kill(&dtm->rx_tasklet);
	tasklet_kill(&dtm->evt_tasklet);
	kfree(dtm);
}

module_init(dtm_init);
module_exit(dtm_exit);
MODULE_DESCRIPTION("detasklet test module: legacy tasklet_init with unsigned long data");
MODULE_LICENSE("GPL");
