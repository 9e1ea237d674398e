// SPDX-License-Identifier: GPL-2.0+
#include <linux/list.h>
#include <linux/irq.h>
#include "fhci.h"

static void process_done_list(unsigned long data)
{
	struct fhci_hcd *fhci = (struct fhci_hcd *)data;

	disable_irq(fhci->timer->irq);
	spin_lock(&fhci->lock);
	while (!list_empty(&fhci->hc_list->done_list))
		list_del_init(fhci->hc_list->done_list.next);
	spin_unlock(&fhci->lock);
	enable_irq(fhci->timer->irq);
}

DECLARE_TASKLET_OLD(fhci_tasklet, process_done_list);

/* transfer completed callback */
u32 fhci_transfer_confirm_callback(struct fhci_hcd *fhci)
{
	if (!fhci->process_done_task->state)
		tasklet_schedule(fhci->process_done_task);
	return 0;
}
