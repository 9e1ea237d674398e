// SPDX-License-Identifier: GPL-2.0
/*
 * The only enable goes through a tasklet pointer, and nobody decided it:
 * the tracked form needs the item's own field to hold its flag, which a
 * bare pointer does not name. The file stays as it is, with the reason.
 */
#include <linux/interrupt.h>

struct q {
	struct tasklet_struct done;
	int n;
};

static void q_done(struct tasklet_struct *t)
{
	struct q *q = from_tasklet(q, t, done);

	q->n++;
}

static void q_resume(struct tasklet_struct *t)
{
	tasklet_enable(t);
}

static void q_irq(struct q *q)
{
	tasklet_schedule(&q->done);
}

static void q_setup(struct q *q)
{
	tasklet_setup(&q->done, q_done);
	tasklet_disable(&q->done);
	q_resume(&q->done);
}
