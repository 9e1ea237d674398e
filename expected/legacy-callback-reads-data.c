// SPDX-License-Identifier: GPL-2.0
/* Container data, but the callback also prints the raw value: it keeps it. */
#include <linux/interrupt.h>

struct he_dev {
	struct work_struct tasklet;
	int group;
};

static void he_tasklet(struct work_struct *work);

static void he_tasklet(struct work_struct *work)
{
	unsigned long data = (unsigned long)container_of(work, struct he_dev, tasklet);
	struct he_dev *he_dev = (struct he_dev *)data;

	pr_debug("tasklet (0x%lx)\n", data);
	he_dev->group = 0;
}

static void he_start(struct he_dev *he_dev)
{
	INIT_WORK(&he_dev->tasklet, he_tasklet);
}
