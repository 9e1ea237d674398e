// SPDX-License-Identifier: GPL-2.0
/* Helpers that take a struct tasklet_struct pointer, and an array of them. */
#include <linux/interrupt.h>

struct ring {
	struct tasklet_struct *owner;
	struct tasklet_struct done[2];
};

static void ring_kick(struct tasklet_struct *t)
{
	tasklet_schedule(t);
}

static void ring_done(struct tasklet_struct *t)
{
	pr_debug("%zu\n", sizeof(struct tasklet_struct));
}

static void ring_init(struct ring *r)
{
	int i;

	for (i = 0; i < 2; i++)
		tasklet_setup(&r->done[i], ring_done);
	r->owner = &r->done[0];
	ring_kick(r->owner);
}

static void ring_stop(struct ring *r)
{
	tasklet_kill(&r->done[0]);
	tasklet_kill(&r->done[1]);
	tasklet_unlock_wait(r->owner);
}
