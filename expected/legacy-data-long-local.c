// SPDX-License-Identifier: GPL-2.0
/* The new local would pass 100 columns: it is broken after '=' (checkpatch). */
#include <linux/interrupt.h>

struct crypto4xx_core_device_private {
	struct work_struct bottom_half_tasklet;
	unsigned long bottom_half_tasklet_data;
	void *dev;
};

static void crypto4xx_bh_tasklet_cb(struct work_struct *work)
{
	unsigned long data = container_of(work, struct crypto4xx_core_device_private,
					  bottom_half_tasklet)->bottom_half_tasklet_data;
	void *dev = (void *)data;

	pr_debug("%p\n", dev);
}

static void crypto4xx_probe(struct crypto4xx_core_device_private *core_dev, void *dev)
{
	core_dev->bottom_half_tasklet_data = (unsigned long)dev;
	INIT_WORK(&core_dev->bottom_half_tasklet, crypto4xx_bh_tasklet_cb);
}
