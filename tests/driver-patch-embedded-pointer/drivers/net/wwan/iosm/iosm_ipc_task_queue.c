// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tasklet is allocated on its own and reached through a pointer:
 * cocci/drivers/iosm.cocci embeds it.
 */
#include "iosm_ipc_task_queue.h"

static void ipc_task_queue_handler(unsigned long data)
{
	struct ipc_task_queue *ipc_task = (struct ipc_task_queue *)data;

	ipc_task->q_rpos = ipc_task->q_wpos;
}

static int ipc_task_queue_add_task(struct iosm_imem *ipc_imem, bool wait)
{
	struct tasklet_struct *ipc_tasklet = ipc_imem->ipc_task->ipc_tasklet;
	struct ipc_task_queue *ipc_task = &ipc_imem->ipc_task->ipc_queue;
	int result = -EIO;

	if (ipc_task->q_wpos + 1 != ipc_task->q_rpos) {
		ipc_task->q_wpos++;
		result = 0;
	}

	if (result == 0)
		tasklet_schedule(ipc_tasklet);

	return result;
}

int ipc_task_init(struct ipc_task *ipc_task)
{
	struct ipc_task_queue *ipc_queue = &ipc_task->ipc_queue;

	ipc_task->ipc_tasklet = kzalloc(sizeof(*ipc_task->ipc_tasklet),
					GFP_KERNEL);

	if (!ipc_task->ipc_tasklet)
		return -ENOMEM;

	spin_lock_init(&ipc_queue->q_lock);

	tasklet_init(ipc_task->ipc_tasklet, ipc_task_queue_handler,
		     (unsigned long)ipc_queue);
	return 0;
}

void ipc_task_deinit(struct ipc_task *ipc_task)
{
	tasklet_kill(ipc_task->ipc_tasklet);

	kfree(ipc_task->ipc_tasklet);
}
