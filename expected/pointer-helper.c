// SPDX-License-Identifier: GPL-2.0
/* Helpers that take a struct tasklet_struct pointer, and an array of them. */
#include <linux/interrupt.h>

struct ring {
	struct work_struct *owner;
	struct work_struct done[2];
};

static void ring_kick(struct work_struct *t)
{
	queue_work(system_bh_wq, t);
}

static void ring_done(struct work_struct *work)
{
	pr_debug("%zu\n", sizeof(struct work_struct));
}

static void ring_init(struct ring *r)
{
	int i;

	for (i = 0; i < 2; i++)
		INIT_WORK(&r->done[i], ring_done);
	r->owner = &r->done[0];
	ring_kick(r->owner);
}

static void ring_stop(struct ring *r)
{
	flush_work(&r->done[0]);
	flush_work(&r->done[1]);
	flush_work(r->owner);
}
