// SPDX-License-Identifier: GPL-2.0
/*
 * The data is the address of another member of the struct that holds the
 * tasklet (a ring's own completion record): the callback gets the same
 * address from container_of() of the work item, with no new field.
 */
#include <linux/interrupt.h>

struct ring_done {
	unsigned int head;
};

struct ring {
	struct ring_done done;
	struct tasklet_struct done_task;
};

static void ring_done_task(unsigned long arg)
{
	struct ring_done *d = (struct ring_done *)arg;

	pr_debug("ring done at %lx\n", arg);
	d->head = 0;
}

static int ring_init(struct ring *r)
{
	tasklet_init(&r->done_task, ring_done_task, (unsigned long)&r->done);
	return 0;
}

static void ring_irq(struct ring *r)
{
	tasklet_schedule(&r->done_task);
}

static void ring_remove(struct ring *r)
{
	tasklet_kill(&r->done_task);
}
