// SPDX-License-Identifier: GPL-2.0
/*
 * One item queued with tasklet_schedule() and tasklet_hi_schedule(), and
 * no decision: moving the normal site to the highpri queue (one item, one
 * queue) changes its priority, which is for the driver's owner to decide.
 */
#include <linux/interrupt.h>

struct hcd {
	struct tasklet_struct bh;
};

static void hcd_bh(struct tasklet_struct *t)
{
}

static void hcd_urgent(struct hcd *h)
{
	tasklet_hi_schedule(&h->bh);
}

static void hcd_later(struct hcd *h)
{
	tasklet_schedule(&h->bh);
}

static void hcd_init(struct hcd *h)
{
	tasklet_setup(&h->bh, hcd_bh);
}
