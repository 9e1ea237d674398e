// SPDX-License-Identifier: GPL-2.0
/* The state word is printed in a debug dump: work_busy() has its bits. */
#include <linux/interrupt.h>

struct eq {
	struct work_struct   ceq_tasklet;
	u32 cons_idx;
};

static void eq_dump(struct device *dev, struct eq *eq)
{
	dev_err(dev, "ci: 0x%08x, tasklet_state: 0x%lx\n",
		eq->cons_idx, (unsigned long)work_busy(&eq->ceq_tasklet));
}
