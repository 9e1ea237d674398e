// SPDX-License-Identifier: GPL-2.0
/*
 * A comment that names the schedule a few lines below it, in a network
 * driver's transmit path (the shape of sundance's start_tx()): the
 * comment names the call the schedule became.
 */
#include <linux/interrupt.h>
#include <linux/netdevice.h>

struct netdev_private {
	struct tasklet_struct tx_tasklet;
	unsigned int cur_tx;
	unsigned int dirty_tx;
};

static void tx_poll(struct tasklet_struct *t)
{
	struct netdev_private *np = from_tasklet(np, t, tx_tasklet);

	np->dirty_tx = np->cur_tx;
}

static netdev_tx_t start_tx(struct sk_buff *skb, struct net_device *dev)
{
	struct netdev_private *np = netdev_priv(dev);

	/* Increment cur_tx before tasklet_schedule() */
	np->cur_tx++;
	mb();
	/* Schedule a tx_poll() task */
	tasklet_schedule(&np->tx_tasklet);
	return NETDEV_TX_OK;
}

static int netdev_open(struct net_device *dev)
{
	struct netdev_private *np = netdev_priv(dev);

	tasklet_setup(&np->tx_tasklet, tx_poll);
	return 0;
}

static const struct net_device_ops netdev_ops = {
	.ndo_open = netdev_open,
	.ndo_start_xmit = start_tx,
};
