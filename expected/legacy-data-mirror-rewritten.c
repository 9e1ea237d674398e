// SPDX-License-Identifier: GPL-2.0
/*
 * The data is the request the probe stored in a member of the container,
 * but the driver swaps that member at run time (xchg on its address): the
 * callback must keep the value of init time, which moves into a new field.
 */
#include <linux/interrupt.h>

struct req;

struct term {
	struct req *read;
	struct work_struct readlet;
	unsigned long readlet_data;
};

static void term_read_tasklet(struct work_struct *work)
{
	unsigned long data = container_of(work, struct term, readlet)->readlet_data;
	struct req *rrq = (struct req *)data;

	pr_debug("read %p\n", rrq);
}

static void term_issue_read(struct term *tp)
{
	struct req *rrq = xchg(&tp->read, NULL);

	if (rrq)
		queue_work(system_bh_wq, &tp->readlet);
}

static int term_alloc(struct term *tp, struct req *rq)
{
	tp->read = rq;
	tp->readlet_data = (unsigned long)rq;
	INIT_WORK(&tp->readlet, term_read_tasklet);
	return 0;
}
