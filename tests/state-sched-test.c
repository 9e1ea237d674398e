// SPDX-License-Identifier: GPL-2.0
/* A plain test of TASKLET_STATE_SCHED is work_pending(). */
#include <linux/interrupt.h>

struct eng {
	struct tasklet_struct bh;
};

static bool eng_busy(struct eng *e)
{
	return test_bit(TASKLET_STATE_SCHED, &e->bh.state);
}
