// SPDX-License-Identifier: GPL-2.0
/* The new local would pass 100 columns: it is broken after '=' (checkpatch). */
#include <linux/interrupt.h>

struct crypto4xx_core_device_private {
	struct tasklet_struct bottom_half_tasklet;
	void *dev;
};

static void crypto4xx_bh_tasklet_cb(unsigned long data)
{
	void *dev = (void *)data;

	pr_debug("%p\n", dev);
}

static void crypto4xx_probe(struct crypto4xx_core_device_private *core_dev, void *dev)
{
	tasklet_init(&core_dev->bottom_half_tasklet, crypto4xx_bh_tasklet_cb,
		     (unsigned long)dev);
}
