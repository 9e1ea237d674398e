// SPDX-License-Identifier: GPL-2.0
/* disable/enable around a reset; enable re-queues on the item's queue. */
#include <linux/interrupt.h>

struct nic {
	struct work_struct tx_tasklet;
	struct work_struct hi_tasklet;
};

static void nic_tx(struct work_struct *work)
{
	struct nic *n = from_work(n, work, tx_tasklet);

	(void)n;
}

static void nic_hi(struct work_struct *work)
{
	struct nic *n = from_work(n, work, hi_tasklet);

	(void)n;
}

static void nic_reset(struct nic *n)
{
	disable_work_sync(&n->tx_tasklet);
	disable_work(&n->hi_tasklet);
	enable_and_queue_work(system_bh_wq, &n->tx_tasklet);
	enable_and_queue_work(system_bh_highpri_wq, &n->hi_tasklet);
}

static void nic_irq(struct nic *n)
{
	queue_work(system_bh_wq, &n->tx_tasklet);
	queue_work(system_bh_highpri_wq, &n->hi_tasklet);
}

static void nic_open(struct nic *n)
{
	INIT_WORK(&n->tx_tasklet, nic_tx);
	INIT_WORK(&n->hi_tasklet, nic_hi);
}
