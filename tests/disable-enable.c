// SPDX-License-Identifier: GPL-2.0
/* disable/enable around a reset; enable re-queues on the item's queue. */
#include <linux/interrupt.h>

struct nic {
	struct tasklet_struct tx_tasklet;
	struct tasklet_struct hi_tasklet;
};

static void nic_tx(struct tasklet_struct *t)
{
	struct nic *n = from_tasklet(n, t, tx_tasklet);

	(void)n;
}

static void nic_hi(struct tasklet_struct *t)
{
	struct nic *n = from_tasklet(n, t, hi_tasklet);

	(void)n;
}

static void nic_reset(struct nic *n)
{
	tasklet_disable(&n->tx_tasklet);
	tasklet_disable_nosync(&n->hi_tasklet);
	tasklet_enable(&n->tx_tasklet);
	tasklet_enable(&n->hi_tasklet);
}

static void nic_irq(struct nic *n)
{
	tasklet_schedule(&n->tx_tasklet);
	tasklet_hi_schedule(&n->hi_tasklet);
}

static void nic_open(struct nic *n)
{
	tasklet_setup(&n->tx_tasklet, nic_tx);
	tasklet_setup(&n->hi_tasklet, nic_hi);
}
