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
	struct work_struct done_task;
};

static void ring_done_task(struct work_struct *work)
{
	unsigned long arg = (unsigned long)&container_of(work, struct ring, done_task)->done;
	struct ring_done *d = (struct ring_done *)arg;

	pr_debug("ring done at %lx\n", arg);
	d->head = 0;
}

static int ring_init(struct ring *r)
{
	INIT_WORK(&r->done_task, ring_done_task);
	return 0;
}

static void ring_irq(struct ring *r)
{
	queue_work(system_bh_wq, &r->done_task);
}

static void ring_remove(struct ring *r)
{
	flush_work(&r->done_task);
}
