// SPDX-License-Identifier: GPL-2.0
/*
 * The data is the address of another member of the struct that holds the
 * tasklet (iosm's message queue), and the callback's one read of it is a
 * cast to that member's type: the pointer is taken from container_of() of
 * the work item directly, with no unsigned long on the way.
 */
#include <linux/interrupt.h>

struct msg_queue {
	unsigned int q_rpos;
	unsigned int q_wpos;
};

struct msg_task {
	struct device *dev;
	struct tasklet_struct msg_tasklet;
	struct msg_queue msg_queue;
};

static void msg_task_queue_handler(unsigned long data)
{
	struct msg_queue *queue = (struct msg_queue *)data;
	unsigned int q_rpos = queue->q_rpos;

	while (q_rpos != queue->q_wpos)
		q_rpos = (q_rpos + 1) % 16;
	queue->q_rpos = q_rpos;
}

int msg_task_init(struct msg_task *task)
{
	struct msg_queue *queue = &task->msg_queue;

	tasklet_init(&task->msg_tasklet, msg_task_queue_handler,
		     (unsigned long)&task->msg_queue);
	queue->q_rpos = 0;
	return 0;
}

void msg_task_kick(struct msg_task *task)
{
	tasklet_schedule(&task->msg_tasklet);
}

void msg_task_deinit(struct msg_task *task)
{
	tasklet_kill(&task->msg_tasklet);
}
