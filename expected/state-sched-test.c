// SPDX-License-Identifier: GPL-2.0
/* A plain test of TASKLET_STATE_SCHED is work_pending(). */
#include <linux/interrupt.h>

struct eng {
	struct work_struct bh;
};

static bool eng_busy(struct eng *e)
{
	return work_pending(&e->bh);
}
