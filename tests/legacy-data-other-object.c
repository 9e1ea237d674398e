// SPDX-License-Identifier: GPL-2.0
/* Data is another object (the atm device): it moves into a new field. */
#include <linux/interrupt.h>

struct atm_dev;

struct eni_dev {
	struct tasklet_struct task;
	struct atm_dev *dev;
};

static void eni_tasklet(unsigned long data)
{
	struct atm_dev *dev = (struct atm_dev *)data;

	pr_debug("%p\n", dev);
}

static void eni_start(struct eni_dev *eni_dev, struct atm_dev *dev)
{
	tasklet_init(&eni_dev->task, eni_tasklet, (unsigned long)dev);
}
