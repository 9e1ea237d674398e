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
	struct tasklet_struct readlet;
};

static void term_read_tasklet(unsigned long data)
{
	struct req *rrq = (struct req *)data;

	pr_debug("read %p\n", rrq);
}

static void term_issue_read(struct term *tp)
{
	struct req *rrq = xchg(&tp->read, NULL);

	if (rrq)
		tasklet_schedule(&tp->readlet);
}

static int term_alloc(struct term *tp, struct req *rq)
{
	tp->read = rq;
	tasklet_init(&tp->readlet, term_read_tasklet, (unsigned long)rq);
	return 0;
}
