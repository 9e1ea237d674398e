// SPDX-License-Identifier: GPL-2.0
/* A NIC shape: an rx and a tx bottom half, the rx one high priority. */
#include <linux/interrupt.h>
#include <linux/netdevice.h>
#include <linux/spinlock.h>

struct fake_nic {
	spinlock_t lock;
	struct work_struct rx_task;
	struct work_struct tx_task;
	unsigned int pending;
};

static void fake_tx_done(struct work_struct *work);

static void fake_rx_poll(struct work_struct *work)
{
	struct fake_nic *nic = from_work(nic, work, rx_task);

	spin_lock(&nic->lock);
	if (!nic->pending) {
		spin_unlock(&nic->lock);
		return;
	}
	nic->pending--;
	spin_unlock(&nic->lock);
}

static irqreturn_t fake_irq(int irq, void *dev_id)
{
	struct fake_nic *nic = dev_id;

	queue_work(system_highpri_wq, &nic->rx_task);
	queue_work(system_percpu_wq, &nic->tx_task);
	return IRQ_HANDLED;
}

/* fake_rx_poll() ran in softirq context: keep softirqs off while it runs. */
static void fake_rx_poll_bh_off(struct work_struct *work)
{
	local_bh_disable();
	fake_rx_poll(work);
	local_bh_enable();
}

/* fake_tx_done() ran in softirq context: keep softirqs off while it runs. */
static void fake_tx_done_bh_off(struct work_struct *work)
{
	local_bh_disable();
	fake_tx_done(work);
	local_bh_enable();
}

/**
 * fake_probe - set the device up
 * @nic: the device
 */
static int fake_probe(struct fake_nic *nic)
{
	spin_lock_init(&nic->lock);
	INIT_WORK(&nic->rx_task, fake_rx_poll_bh_off);
	INIT_WORK(&nic->tx_task, fake_tx_done_bh_off);
	return 0;
}

static void fake_remove(struct fake_nic *nic)
{
	flush_work(&nic->rx_task);
	flush_work(&nic->tx_task);
}

static void fake_tx_done(struct work_struct *work)
{
	struct fake_nic *nic = from_work(nic, work, tx_task);

	spin_lock(&nic->lock);
	nic->pending = 0;
	spin_unlock(&nic->lock);
}
