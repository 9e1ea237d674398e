// SPDX-License-Identifier: GPL-2.0
/* A tasklet scheduled with tasklet_hi_schedule() runs from HI_SOFTIRQ. */
#include <linux/interrupt.h>

struct hcd_priv {
	struct tasklet_struct giveback;
	int done;
};

static void hcd_giveback(struct tasklet_struct *t)
{
	struct hcd_priv *h = from_tasklet(h, t, giveback);

	h->done = 1;
}

static void hcd_irq(struct hcd_priv *h)
{
	tasklet_hi_schedule(&h->giveback);
}

static void hcd_init(struct hcd_priv *h)
{
	tasklet_setup(&h->giveback, hcd_giveback);
}
