// SPDX-License-Identifier: GPL-2.0
/* A local pointer to the tasklet, and its ->state read through it. */
#include <linux/interrupt.h>

struct hcd {
	struct tasklet_struct done_task;
};

static void hcd_confirm(struct hcd *h)
{
	struct tasklet_struct *t = &h->done_task;

	if (!t->state)
		tasklet_schedule(t);
}
