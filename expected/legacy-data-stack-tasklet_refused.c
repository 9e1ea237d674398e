// SPDX-License-Identifier: GPL-2.0
/* A tasklet on the stack with its data next to it (ccp shape): no struct to extend. */
#include <linux/interrupt.h>

struct tdata {
	int done;
};

static void do_cmd_complete(unsigned long data)
{
	struct tdata *t = (struct tdata *)data;

	t->done = 1;
}

static void run_cmd(void)
{
	struct tasklet_struct tasklet;
	struct tdata tdata = { 0 };

	tasklet_init(&tasklet, do_cmd_complete, (unsigned long)&tdata);
	tasklet_schedule(&tasklet);
	tasklet_kill(&tasklet);
}
