// SPDX-License-Identifier: GPL-2.0
/* Data is another object (the atm device): it moves into a new field. */
#include <linux/interrupt.h>

struct atm_dev;

struct eni_dev {
	struct work_struct task;
	unsigned long task_data;
	struct atm_dev *dev;
};

static void eni_tasklet(struct work_struct *work)
{
	unsigned long data = container_of(work, struct eni_dev, task)->task_data;
	struct atm_dev *dev = (struct atm_dev *)data;

	pr_debug("%p\n", dev);
}

static void eni_start(struct eni_dev *eni_dev, struct atm_dev *dev)
{
	eni_dev->task_data = (unsigned long)dev;
	INIT_WORK(&eni_dev->task, eni_tasklet);
}
