// SPDX-License-Identifier: GPL-2.0
/*
 * One tasklet scheduled both ways: one workqueue, the highpri one, at both
 * sites and at its enable; the other tasklet stays on system_bh_wq.
 */
#include <linux/interrupt.h>

struct uhci {
	struct work_struct bh;
	struct work_struct fsbr;
};

static void uhci_urgent(struct uhci *u)
{
	queue_work(system_bh_highpri_wq, &u->bh);
}

static void uhci_later(struct uhci *u)
{
	queue_work(system_bh_highpri_wq, &u->bh);
	queue_work(system_bh_wq, &u->fsbr);
}

static void uhci_resume(struct uhci *u)
{
	enable_and_queue_work(system_bh_highpri_wq, &u->bh);
	enable_and_queue_work(system_bh_wq, &u->fsbr);
}
