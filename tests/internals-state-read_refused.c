// SPDX-License-Identifier: GPL-2.0
/* The state word decides what the driver does: no work_struct equivalent. */
#include <linux/interrupt.h>

struct hcd {
	struct tasklet_struct	*done_task;
	int			pending;
};

static void hcd_kick(struct hcd *hcd)
{
	if (!test_bit(TASKLET_STATE_RUN, &hcd->done_task->state))
		hcd->pending = 0;
	tasklet_schedule(hcd->done_task);
}
