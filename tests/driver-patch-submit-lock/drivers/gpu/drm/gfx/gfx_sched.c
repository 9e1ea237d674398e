// SPDX-License-Identifier: GPL-2.0
#include <linux/slab.h>

#include "gfx_sched.h"

/* The one tasklet callback: the backend's function runs under the bit. */
static void gfx_sched_tasklet(struct tasklet_struct *t)
{
	struct gfx_sched *se = from_tasklet(se, t, tasklet);

	gfx_sched_lock(se);
	if (gfx_sched_is_enabled(se))
		se->submit_fn(se);
	gfx_sched_unlock(se);
}

struct gfx_sched *gfx_sched_create(void)
{
	struct gfx_sched *se = kzalloc(sizeof(*se), GFP_KERNEL);

	if (!se)
		return NULL;
	spin_lock_init(&se->lock);
	tasklet_setup(&se->tasklet, gfx_sched_tasklet);
	return se;
}

void gfx_sched_destroy(struct gfx_sched *se)
{
	tasklet_kill(&se->tasklet);
	kfree(se);
}

void gfx_flush_submission(struct gfx_sched *se)
{
	if (!se->submit_fn)
		return;

	local_bh_disable();
	if (gfx_sched_trylock(se)) {
		if (gfx_sched_is_enabled(se))
			se->submit_fn(se);
		gfx_sched_unlock(se);
	}
	local_bh_enable();

	gfx_sched_unlock_wait(se);
}

/* Process context: disable, wait on the lock, reset, enable and kick. */
void gfx_sched_reset(struct gfx_sched *se)
{
	gfx_sched_disable_nosync(se);
	gfx_sched_unlock_wait(se);
	se->private_data = NULL;
	gfx_sched_enable(se);
}
