// SPDX-License-Identifier: GPL-2.0
/*
 * tasklet_disable() in the ndo_tx_timeout handler, which the netdev
 * watchdog runs in softirq with the tx lock held: disable_work_sync()
 * may sleep there.
 */
#include <linux/interrupt.h>
#include <linux/netdevice.h>

struct nic {
	struct tasklet_struct tx_tasklet;
};

static void nic_reset_tx(struct nic *np)
{
	tasklet_disable(&np->tx_tasklet);
	tasklet_enable(&np->tx_tasklet);
}

static void nic_tx_timeout(struct net_device *dev, unsigned int txqueue)
{
	nic_reset_tx(netdev_priv(dev));
}

static const struct net_device_ops nic_netdev_ops = {
	.ndo_tx_timeout		= nic_tx_timeout,
};
