// SPDX-License-Identifier: GPL-2.0-only
#include <linux/kthread.h>

#include "ccp-dev.h"

static void ccp_irq_bh(unsigned long data)
{
	struct ccp_device *ccp = (struct ccp_device *)data;

	ccp_enable_queue_interrupts(ccp);
}

static irqreturn_t ccp_irq_handler(int irq, void *data)
{
	struct ccp_device *ccp = data;

	ccp_disable_queue_interrupts(ccp);
	tasklet_schedule(&ccp->irq_tasklet);

	return IRQ_HANDLED;
}

static int ccp_init(struct ccp_device *ccp)
{
	unsigned int i;

	tasklet_init(&ccp->irq_tasklet, ccp_irq_bh, (unsigned long)ccp);

	for (i = 0; i < ccp->cmd_q_count; i++)
		ccp->cmd_q[i].kthread = kthread_run(ccp_cmd_queue_thread,
						    &ccp->cmd_q[i], "ccp-q%u", i);

	return 0;
}
