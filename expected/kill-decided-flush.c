// SPDX-License-Identifier: GPL-2.0
/*
 * A kill that is a flush (mac80211's TDLS teardown shape): the comment
 * says it is there to make the pending TX run; the driver's decision is
 * flush_work(), which keeps that run.
 */
#include <linux/interrupt.h>

struct local {
	struct work_struct tx_pending_tasklet;
	int pending;
};

static void local_tx_pending(struct work_struct *work)
{
	struct local *l = from_work(l, work, tx_pending_tasklet);

	l->pending = 0;
	queue_work(system_bh_wq, &l->tx_pending_tasklet);
}

static void local_link_down(struct local *l)
{
	/* make the pending frames go out before the link is gone */
	flush_work(&l->tx_pending_tasklet);
}

static void local_init(struct local *l)
{
	INIT_WORK(&l->tx_pending_tasklet, local_tx_pending);
}
