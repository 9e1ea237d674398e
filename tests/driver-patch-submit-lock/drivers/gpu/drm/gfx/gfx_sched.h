/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _GFX_SCHED_H_
#define _GFX_SCHED_H_

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/interrupt.h>
#include <linux/wait_bit.h>

struct gfx_sched {
	spinlock_t lock;
	struct tasklet_struct tasklet;
	void (*submit_fn)(struct gfx_sched *se);
	unsigned long submit_lock;
	atomic_t reset_depth;
	void *private_data;
};

static inline bool gfx_sched_trylock(struct gfx_sched *se)
{
	return !test_and_set_bit(0, &se->submit_lock);
}

static inline void gfx_sched_lock(struct gfx_sched *se)
{
	while (!gfx_sched_trylock(se))
		cpu_relax();
}

static inline void gfx_sched_unlock(struct gfx_sched *se)
{
	clear_and_wake_up_bit(0, &se->submit_lock);
}

static inline void gfx_sched_unlock_wait(struct gfx_sched *se)
{
	wait_on_bit(&se->submit_lock, 0, TASK_UNINTERRUPTIBLE);
}

static inline bool gfx_sched_is_enabled(const struct gfx_sched *se)
{
	return !atomic_read(&se->reset_depth);
}

/* The reset depth goes 0 -> 1: the tasklet is disabled, no wait here. */
static inline void gfx_sched_disable_nosync(struct gfx_sched *se)
{
	if (!atomic_fetch_inc(&se->reset_depth))
		tasklet_disable_nosync(&se->tasklet);
}

/* The reset depth goes 1 -> 0: the tasklet is enabled, the caller kicks. */
static inline bool __gfx_sched_enable(struct gfx_sched *se)
{
	if (!atomic_dec_and_test(&se->reset_depth))
		return false;

	tasklet_enable(&se->tasklet);
	return true;
}

static inline void gfx_sched_enable(struct gfx_sched *se)
{
	if (__gfx_sched_enable(se))
		tasklet_hi_schedule(&se->tasklet);
}

struct gfx_sched *gfx_sched_create(void);
void gfx_sched_destroy(struct gfx_sched *se);
void gfx_flush_submission(struct gfx_sched *se);
void gfx_sched_reset(struct gfx_sched *se);

#endif
