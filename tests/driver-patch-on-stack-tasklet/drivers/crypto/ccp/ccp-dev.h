/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __CCP_DEV_H__
#define __CCP_DEV_H__

#include <linux/interrupt.h>
#include <linux/completion.h>

struct ccp_cmd;

struct ccp_cmd_queue {
	struct ccp_device *ccp;
	u32 id;

	/* Queue processing thread */
	struct task_struct *kthread;
	unsigned int active;
	unsigned int suspended;

	unsigned int free_slots;
};

struct ccp_device {
	struct ccp_cmd_queue cmd_q[5];
	unsigned int cmd_q_count;
	struct tasklet_struct irq_tasklet;
};

int ccp_cmd_queue_thread(void *data);

#endif
