// SPDX-License-Identifier: GPL-2.0
/* A tasklet scheduled with tasklet_hi_schedule() runs from HI_SOFTIRQ. */
#include <linux/interrupt.h>

struct hcd_priv {
	struct work_struct giveback;
	int done;
};

static void hcd_giveback(struct work_struct *work)
{
	struct hcd_priv *h = from_work(h, work, giveback);

	h->done = 1;
}

static void hcd_irq(struct hcd_priv *h)
{
	queue_work(system_bh_highpri_wq, &h->giveback);
}

static void hcd_init(struct hcd_priv *h)
{
	INIT_WORK(&h->giveback, hcd_giveback);
}
