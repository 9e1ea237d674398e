// SPDX-License-Identifier: GPL-2.0
/* Legacy init with data 0: the callback never reads it. */
#include <linux/interrupt.h>

static struct tasklet_struct done_tasklet;

static void done_action(unsigned long arg)
{
	pr_debug("done\n");
}

static int engine_init(void)
{
	tasklet_init(&done_tasklet, done_action, 0);
	tasklet_schedule(&done_tasklet);
	return 0;
}
