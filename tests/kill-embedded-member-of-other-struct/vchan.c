// SPDX-License-Identifier: GPL-2.0
#include "vchan.h"

static void vchan_complete(struct tasklet_struct *t)
{
	struct vchan *vc = from_tasklet(vc, t, task);
	LIST_HEAD(head);

	spin_lock_irq(&vc->lock);
	list_splice_tail_init(&vc->desc_completed, &head);
	spin_unlock_irq(&vc->lock);
}

void vchan_init(struct vchan *vc)
{
	spin_lock_init(&vc->lock);
	INIT_LIST_HEAD(&vc->desc_completed);
	tasklet_setup(&vc->task, vchan_complete);
}
EXPORT_SYMBOL_GPL(vchan_init);
