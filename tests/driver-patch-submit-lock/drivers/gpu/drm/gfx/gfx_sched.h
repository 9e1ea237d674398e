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
	unsigned long submit_running;
	atomic_t submit_disabled;
	void *private_data;
};

static inline bool gfx_sched_trylock(struct gfx_sched *se)
{
	return !test_and_set_bit(0, &se->submit_running);
}

static inline void gfx_sched_unlock(struct gfx_sched *se)
{
	clear_and_wake_up_bit(0, &se->submit_running);
}

static inline void gfx_sched_unlock_wait(struct gfx_sched *se)
{
	wait_on_bit(&se->submit_running, 0, TASK_UNINTERRUPTIBLE);
}

static inline bool gfx_sched_is_enabled(const struct gfx_sched *se)
{
	return !atomic_read(&se->submit_disabled);
}

struct gfx_sched *gfx_sched_create(void);
void gfx_sched_destroy(struct gfx_sched *se);
void gfx_flush_submission(struct gfx_sched *se);

#endif
