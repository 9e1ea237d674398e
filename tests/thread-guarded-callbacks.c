// SPDX-License-Identifier: GPL-2.0
/* A NIC shape: an rx and a tx bottom half, the rx one high priority. */
#include <linux/interrupt.h>
#include <linux/netdevice.h>
#include <linux/spinlock.h>

struct fake_nic {
	spinlock_t lock;
	struct tasklet_struct rx_task;
	struct tasklet_struct tx_task;
	unsigned int pending;
};

static void fake_tx_done(struct tasklet_struct *t);

static void fake_rx_poll(struct tasklet_struct *t)
{
	struct fake_nic *nic = from_tasklet(nic, t, rx_task);

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

	tasklet_hi_schedule(&nic->rx_task);
	tasklet_schedule(&nic->tx_task);
	return IRQ_HANDLED;
}

/**
 * fake_probe - set the device up
 * @nic: the device
 */
static int fake_probe(struct fake_nic *nic)
{
	spin_lock_init(&nic->lock);
	tasklet_setup(&nic->rx_task, fake_rx_poll);
	tasklet_setup(&nic->tx_task, fake_tx_done);
	return 0;
}

static void fake_remove(struct fake_nic *nic)
{
	tasklet_kill(&nic->rx_task);
	tasklet_kill(&nic->tx_task);
}

static void fake_tx_done(struct tasklet_struct *t)
{
	struct fake_nic *nic = from_tasklet(nic, t, tx_task);

	spin_lock(&nic->lock);
	nic->pending = 0;
	spin_unlock(&nic->lock);
}
