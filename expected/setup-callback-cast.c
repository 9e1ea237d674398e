// SPDX-License-Identifier: GPL-2.0
/*
 * tasklet_setup() given its callback through a cast, (void *)cb as ibmvnic
 * does, or to the callback's own pointer type: once the callback takes the
 * struct work_struct *, the cast would only hide the type check.
 */
#include <linux/interrupt.h>

struct foo_adapter {
	struct work_struct	tasklet;
	struct work_struct	tx_tasklet;
	unsigned int pending;
};

static void foo_tasklet(struct work_struct *work)
{
	struct foo_adapter *adapter = from_work(adapter, work, tasklet);

	adapter->pending = 0;
}

static void foo_tx_tasklet(struct work_struct *work)
{
	struct foo_adapter *adapter = from_work(adapter, work, tx_tasklet);

	adapter->pending++;
}

static irqreturn_t foo_interrupt(int irq, void *instance)
{
	struct foo_adapter *adapter = instance;

	queue_work(system_bh_wq, &adapter->tasklet);
	queue_work(system_bh_wq, &adapter->tx_tasklet);
	return IRQ_HANDLED;
}

static int foo_init_crq_queue(struct foo_adapter *adapter)
{
	INIT_WORK(&adapter->tasklet, foo_tasklet);
	INIT_WORK(&adapter->tx_tasklet, foo_tx_tasklet);
	return 0;
}

static void foo_release_crq_queue(struct foo_adapter *adapter)
{
	flush_work(&adapter->tasklet);
	flush_work(&adapter->tx_tasklet);
}
