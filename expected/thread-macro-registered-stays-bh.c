// SPDX-License-Identifier: GPL-2.0
/* A wireless shape: the bottom halves are set up by a macro. */
#include <linux/interrupt.h>

struct fake_wl {
	struct work_struct txdone;
	struct work_struct rxdone;
};

static void fake_txdone(struct work_struct *work)
{
}

static void fake_rxdone(struct work_struct *work)
{
}

#define FAKE_TASKLET_SETUP(wl, name) \
	INIT_WORK(&(wl)->name, fake_##name)

static void fake_wl_probe(struct fake_wl *wl)
{
	FAKE_TASKLET_SETUP(wl, txdone);
	FAKE_TASKLET_SETUP(wl, rxdone);
}

static void fake_wl_irq(struct fake_wl *wl)
{
	queue_work(system_bh_wq, &wl->txdone);
	queue_work(system_bh_wq, &wl->rxdone);
}

static void fake_wl_remove(struct fake_wl *wl)
{
	flush_work(&wl->txdone);
	flush_work(&wl->rxdone);
}
