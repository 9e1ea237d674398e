// SPDX-License-Identifier: GPL-2.0
/*
 * tasklet_kill() reached from an hrtimer callback, set by hand through
 * .function after hrtimer_init(): it runs in hardirq, where
 * cancel_work_sync() must not be called (it may sleep, and WARNs in
 * hardirq even for a BH work item).
 */
#include <linux/hrtimer.h>
#include <linux/interrupt.h>

struct cam {
	struct tasklet_struct frame_tasklet;
	struct hrtimer stall_timer;
	int frames;
};

static void cam_frame_tasklet(struct tasklet_struct *t)
{
	struct cam *c = from_tasklet(c, t, frame_tasklet);

	c->frames++;
}

static void cam_stop_frames(struct cam *c)
{
	tasklet_kill(&c->frame_tasklet);
}

static enum hrtimer_restart cam_stall(struct hrtimer *timer)
{
	struct cam *c = container_of(timer, struct cam, stall_timer);

	cam_stop_frames(c);
	return HRTIMER_NORESTART;
}

static void cam_start(struct cam *c)
{
	tasklet_setup(&c->frame_tasklet, cam_frame_tasklet);
	hrtimer_init(&c->stall_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	c->stall_timer.function = cam_stall;
}
