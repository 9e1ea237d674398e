// SPDX-License-Identifier: GPL-2.0
#include "gfx_sched.h"

static int gfx_send(struct gfx_sched *se);

static void gfx_submit(struct gfx_sched *se)
{
	unsigned long flags;

	spin_lock_irqsave(&se->lock, flags);
	if (gfx_send(se) == -EBUSY)
		tasklet_schedule(&se->tasklet);
	spin_unlock_irqrestore(&se->lock, flags);
}

void gfx_submit_setup(struct gfx_sched *se)
{
	se->submit_fn = gfx_submit;
}

void gfx_irq(struct gfx_sched *se)
{
	tasklet_hi_schedule(&se->tasklet);
}
