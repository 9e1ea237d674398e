// SPDX-License-Identifier: GPL-2.0
/*
 * Container data, read through two casts in the callback (a declaration,
 * in fore200e's "T* p" style, and a call argument, as fore200e and otx2_cpt
 * do): the declaration becomes from_work(), printed in kernel style, the
 * other cast container_of() of the work item.
 */
#include <linux/interrupt.h>

struct rx_queue;

struct atm_adapter {
	struct work_struct rx_tasklet;
	spinlock_t q_lock;
	struct rx_queue *rxq;
};

static void atm_rx_irq(struct atm_adapter *adapter);

static void
atm_rx_tasklet(struct work_struct *work)
{
	struct atm_adapter *adapter = from_work(adapter, work, rx_tasklet);
	unsigned long flags;

	spin_lock_irqsave(&adapter->q_lock, flags);
	atm_rx_irq(container_of(work, struct atm_adapter, rx_tasklet));
	spin_unlock_irqrestore(&adapter->q_lock, flags);
}

static int atm_irq_request(struct atm_adapter *adapter)
{
	INIT_WORK(&adapter->rx_tasklet, atm_rx_tasklet);
	return 0;
}

static void atm_irq_free(struct atm_adapter *adapter)
{
	flush_work(&adapter->rx_tasklet);
}
