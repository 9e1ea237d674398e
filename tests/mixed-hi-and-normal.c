// SPDX-License-Identifier: GPL-2.0
/*
 * One tasklet scheduled both ways: one workqueue, the highpri one, at both
 * sites and at its enable; the other tasklet stays on system_bh_wq.
 */
#include <linux/interrupt.h>

struct uhci {
	struct tasklet_struct bh;
	struct tasklet_struct fsbr;
};

static void uhci_urgent(struct uhci *u)
{
	tasklet_hi_schedule(&u->bh);
}

static void uhci_later(struct uhci *u)
{
	tasklet_schedule(&u->bh);
	tasklet_schedule(&u->fsbr);
}

static void uhci_resume(struct uhci *u)
{
	tasklet_enable(&u->bh);
	tasklet_enable(&u->fsbr);
}
