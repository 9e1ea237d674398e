// SPDX-License-Identifier: GPL-2.0
/* An open-coded schedule with another body: no rule proves it, it stays. */
#include <linux/interrupt.h>

struct port {
	struct tasklet_struct bh;
	int kicks;
};

static void port_kick(struct port *p)
{
	if (!test_and_set_bit(TASKLET_STATE_SCHED, &p->bh.state)) {
		p->kicks++;
		__tasklet_schedule(&p->bh);
	}
}
