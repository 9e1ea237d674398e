// SPDX-License-Identifier: GPL-2.0
/*
 * A submission engine whose tasklet callback hands the queue to the
 * backend through an ops member, and the backend's kick queues the tasklet
 * again while requests are left. The kill at reset is not a teardown path:
 * flush then cancel holds only if the run never queues its item again, and
 * it does, through e->ops->kick(): a decision for the driver.
 */
#include <linux/interrupt.h>
#include <linux/spinlock.h>

struct sub_engine;

struct sub_backend_ops {
	void (*kick)(struct sub_engine *e);
	void (*reset)(struct sub_engine *e);
};

struct sub_engine {
	struct tasklet_struct bh;
	const struct sub_backend_ops *ops;
	spinlock_t lock;
	int queued;
};

static void sub_ring_kick(struct sub_engine *e)
{
	spin_lock(&e->lock);
	if (--e->queued > 0)
		tasklet_schedule(&e->bh);
	spin_unlock(&e->lock);
}

static void sub_ring_reset(struct sub_engine *e)
{
	e->queued = 0;
}

static const struct sub_backend_ops sub_ring_ops = {
	.kick = sub_ring_kick,
	.reset = sub_ring_reset,
};

static void sub_engine_bh(struct tasklet_struct *t)
{
	struct sub_engine *e = from_tasklet(e, t, bh);

	e->ops->kick(e);
}

void sub_engine_init(struct sub_engine *e)
{
	spin_lock_init(&e->lock);
	e->ops = &sub_ring_ops;
	tasklet_setup(&e->bh, sub_engine_bh);
}

void sub_engine_reset(struct sub_engine *e)
{
	tasklet_kill(&e->bh);
	e->ops->reset(e);
}
