// SPDX-License-Identifier: GPL-2.0
/*
 * tasklet_setup() given its callback through a cast, (void *)cb as ibmvnic
 * does, or to the callback's own pointer type: once the callback takes the
 * struct work_struct *, the cast would only hide the type check.
 */
#include <linux/interrupt.h>

struct foo_adapter {
	struct tasklet_struct	tasklet;
	struct tasklet_struct	tx_tasklet;
	unsigned int pending;
};

static void foo_tasklet(struct tasklet_struct *t)
{
	struct foo_adapter *adapter = from_tasklet(adapter, t, tasklet);

	adapter->pending = 0;
}

static void foo_tx_tasklet(struct tasklet_struct *t)
{
	struct foo_adapter *adapter = from_tasklet(adapter, t, tx_tasklet);

	adapter->pending++;
}

static irqreturn_t foo_interrupt(int irq, void *instance)
{
	struct foo_adapter *adapter = instance;

	tasklet_schedule(&adapter->tasklet);
	tasklet_schedule(&adapter->tx_tasklet);
	return IRQ_HANDLED;
}

static int foo_init_crq_queue(struct foo_adapter *adapter)
{
	tasklet_setup(&adapter->tasklet, (void *)foo_tasklet);
	tasklet_setup(&adapter->tx_tasklet,
		      (void (*)(struct tasklet_struct *))foo_tx_tasklet);
	return 0;
}

static void foo_release_crq_queue(struct foo_adapter *adapter)
{
	tasklet_kill(&adapter->tasklet);
	tasklet_kill(&adapter->tx_tasklet);
}
