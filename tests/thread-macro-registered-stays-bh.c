// SPDX-License-Identifier: GPL-2.0
/* A wireless shape: the bottom halves are set up by a macro. */
#include <linux/interrupt.h>

struct fake_wl {
	struct tasklet_struct txdone;
	struct tasklet_struct rxdone;
};

static void fake_txdone(struct tasklet_struct *t)
{
}

static void fake_rxdone(struct tasklet_struct *t)
{
}

#define FAKE_TASKLET_SETUP(wl, name) \
	tasklet_setup(&(wl)->name, fake_##name)

static void fake_wl_probe(struct fake_wl *wl)
{
	FAKE_TASKLET_SETUP(wl, txdone);
	FAKE_TASKLET_SETUP(wl, rxdone);
}

static void fake_wl_irq(struct fake_wl *wl)
{
	tasklet_schedule(&wl->txdone);
	tasklet_schedule(&wl->rxdone);
}

static void fake_wl_remove(struct fake_wl *wl)
{
	tasklet_kill(&wl->txdone);
	tasklet_kill(&wl->rxdone);
}
