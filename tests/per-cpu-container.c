// SPDX-License-Identifier: GPL-2.0
/* A tasklet in a per-CPU container, as TCP small queues do. */
#include <linux/interrupt.h>
#include <linux/percpu.h>

struct tsq_tasklet {
	struct tasklet_struct	tasklet;
	struct list_head	head;
};
static DEFINE_PER_CPU(struct tsq_tasklet, tsq_tasklet);

static void tsq_handler(struct tasklet_struct *t)
{
	struct tsq_tasklet *tsq = from_tasklet(tsq, t, tasklet);

	INIT_LIST_HEAD(&tsq->head);
}

static void tsq_queue(void)
{
	struct tsq_tasklet *tsq = this_cpu_ptr(&tsq_tasklet);

	tasklet_schedule(&tsq->tasklet);
}

static void __init tsq_init(void)
{
	int i;

	for_each_possible_cpu(i) {
		struct tsq_tasklet *tsq = &per_cpu(tsq_tasklet, i);

		tasklet_setup(&tsq->tasklet, tsq_handler);
	}
}
