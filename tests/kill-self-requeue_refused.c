// SPDX-License-Identifier: GPL-2.0
/*
 * A kill outside teardown, whose callback queues its own item again, and
 * no decision: tasklet_kill() waits for every such run, flush_work() for
 * one. Which the driver needs is for a person to decide.
 */
#include <linux/interrupt.h>

struct txq {
	struct tasklet_struct status;
	int left;
};

static void txq_status(struct tasklet_struct *t)
{
	struct txq *q = from_tasklet(q, t, status);

	if (--q->left > 0)
		tasklet_schedule(&q->status);
}

static void txq_pause(struct txq *q)
{
	tasklet_kill(&q->status);
}

static void txq_init(struct txq *q)
{
	tasklet_setup(&q->status, txq_status);
}
