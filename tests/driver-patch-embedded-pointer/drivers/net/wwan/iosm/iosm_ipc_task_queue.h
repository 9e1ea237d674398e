/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOSM_IPC_TASK_QUEUE_H
#define IOSM_IPC_TASK_QUEUE_H

#include <linux/interrupt.h>

struct ipc_task_queue {
	spinlock_t q_lock;
	unsigned int q_rpos;
	unsigned int q_wpos;
};

/**
 * struct ipc_task - Struct for Task
 * @dev:	 Pointer to device structure
 * @ipc_tasklet: Tasklet for serialized work offload
 * @ipc_queue:	 Task for entry into ipc task queue
 */
struct ipc_task {
	struct device *dev;
	struct tasklet_struct *ipc_tasklet;
	struct ipc_task_queue ipc_queue;
};

struct iosm_imem {
	struct ipc_task *ipc_task;
};

#endif
