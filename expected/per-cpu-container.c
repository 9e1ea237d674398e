// SPDX-License-Identifier: GPL-2.0
/* A tasklet in a per-CPU container, as TCP small queues do. */
#include <linux/interrupt.h>
#include <linux/percpu.h>

struct tsq_tasklet {
	struct work_struct	tasklet;
	struct list_head	head;
};
static DEFINE_PER_CPU(struct tsq_tasklet, tsq_tasklet);

static void tsq_handler(struct work_struct *work)
{
	struct tsq_tasklet *tsq = from_work(tsq, work, tasklet);

	INIT_LIST_HEAD(&tsq->head);
}

static void tsq_queue(void)
{
	struct tsq_tasklet *tsq = this_cpu_ptr(&tsq_tasklet);

	queue_work(system_bh_wq, &tsq->tasklet);
}

static void __init tsq_init(void)
{
	int i;

	for_each_possible_cpu(i) {
		struct tsq_tasklet *tsq = &per_cpu(tsq_tasklet, i);

		INIT_WORK(&tsq->tasklet, tsq_handler);
	}
}
