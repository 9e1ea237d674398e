// SPDX-License-Identifier: GPL-2.0
/* Legacy init with data 0: the callback never reads it. */
#include <linux/interrupt.h>

static struct work_struct done_tasklet;

static void done_action(struct work_struct *work)
{
	pr_debug("done\n");
}

static int engine_init(void)
{
	INIT_WORK(&done_tasklet, done_action);
	queue_work(system_bh_wq, &done_tasklet);
	return 0;
}
