// SPDX-License-Identifier: GPL-2.0
/*
 * The shape of ibmvmc's release: a reset thread disables the tasklet,
 * resets the queue and enables it again (decided: enable_and_queue_work(),
 * which queues); the release killed the tasklet before stopping that
 * thread, so a reset in progress would queue a run after the kill. The
 * driver patch stops the thread first.
 */
#include <linux/interrupt.h>
#include <linux/kthread.h>
#include <linux/wait.h>

struct crq_server_adapter {
	struct tasklet_struct work_task;
	wait_queue_head_t reset_wait_queue;
	struct task_struct *reset_task;
	int irq;
	void *msgs;
	bool resetting;
};

static void ibmvmc_task(unsigned long data)
{
	struct crq_server_adapter *adapter = (struct crq_server_adapter *)data;

	adapter->resetting = false;
	wake_up_interruptible(&adapter->reset_wait_queue);
}

static irqreturn_t ibmvmc_handle_event(int irq, void *dev_instance)
{
	struct crq_server_adapter *adapter = dev_instance;

	tasklet_schedule(&adapter->work_task);
	return IRQ_HANDLED;
}

static int ibmvmc_reset_task(void *data)
{
	struct crq_server_adapter *adapter = data;

	while (!kthread_should_stop()) {
		wait_event_interruptible(adapter->reset_wait_queue,
					 adapter->resetting || kthread_should_stop());
		if (kthread_should_stop())
			break;
		tasklet_disable(&adapter->work_task);
		adapter->resetting = false;
		tasklet_enable(&adapter->work_task);
	}
	return 0;
}

static void ibmvmc_release_crq_queue(struct crq_server_adapter *adapter)
{
	free_irq(adapter->irq, (void *)adapter);
	tasklet_kill(&adapter->work_task);

	if (adapter->reset_task)
		kthread_stop(adapter->reset_task);

	kfree(adapter->msgs);
}

static int ibmvmc_init_crq_queue(struct crq_server_adapter *adapter)
{
	tasklet_init(&adapter->work_task, ibmvmc_task, (unsigned long)adapter);
	return request_irq(adapter->irq, ibmvmc_handle_event, 0, "ibmvmc", adapter);
}

int ibmvmc_probe(struct crq_server_adapter *adapter)
{
	init_waitqueue_head(&adapter->reset_wait_queue);
	adapter->reset_task = kthread_run(ibmvmc_reset_task, adapter, "ibmvmc");
	if (IS_ERR(adapter->reset_task))
		return PTR_ERR(adapter->reset_task);
	return ibmvmc_init_crq_queue(adapter);
}

void ibmvmc_remove(struct crq_server_adapter *adapter)
{
	ibmvmc_release_crq_queue(adapter);
}
