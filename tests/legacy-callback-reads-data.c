// SPDX-License-Identifier: GPL-2.0
/* Container data, but the callback also prints the raw value: it keeps it. */
#include <linux/interrupt.h>

struct he_dev {
	struct tasklet_struct tasklet;
	int group;
};

static void he_tasklet(unsigned long data);

static void he_tasklet(unsigned long data)
{
	struct he_dev *he_dev = (struct he_dev *)data;

	pr_debug("tasklet (0x%lx)\n", data);
	he_dev->group = 0;
}

static void he_start(struct he_dev *he_dev)
{
	tasklet_init(&he_dev->tasklet, he_tasklet, (unsigned long)he_dev);
}
