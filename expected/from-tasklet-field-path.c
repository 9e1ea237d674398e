// SPDX-License-Identifier: GPL-2.0
/* from_tasklet() names a field inside a member struct. */
#include <linux/interrupt.h>

struct creq_ctx {
	struct work_struct	creq_tasklet;
	int			budget;
};

struct rcfw {
	struct creq_ctx creq;
};

static void service_creq(struct work_struct *work)
{
	struct rcfw *rcfw = from_work(rcfw, work, creq.creq_tasklet);

	rcfw->creq.budget = 0;
}

static void rcfw_start(struct rcfw *rcfw)
{
	INIT_WORK(&rcfw->creq.creq_tasklet, service_creq);
}
