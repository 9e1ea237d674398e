// SPDX-License-Identifier: GPL-2.0-only
/*
 * The interrupt cookie is the tasklet itself, handed to request_irq() as
 * void * and cast back in the handler: the cast goes, since a void *
 * converts to the work item's pointer without one.
 */
#include <linux/interrupt.h>

struct foo_hwfn {
	struct work_struct sp_dpc;
	int irq;
};

static void foo_sp_dpc(struct work_struct *work)
{
	struct foo_hwfn *hwfn = from_work(hwfn, work, sp_dpc);

	hwfn->irq++;
}

static irqreturn_t foo_msix_sp_int(int irq, void *tasklet)
{
	queue_work(system_bh_wq, tasklet);
	return IRQ_HANDLED;
}

static int foo_start(struct foo_hwfn *hwfn)
{
	INIT_WORK(&hwfn->sp_dpc, foo_sp_dpc);
	return request_irq(hwfn->irq, foo_msix_sp_int, 0, "foo", &hwfn->sp_dpc);
}

static void foo_stop(struct foo_hwfn *hwfn)
{
	free_irq(hwfn->irq, &hwfn->sp_dpc);
	flush_work(&hwfn->sp_dpc);
}
