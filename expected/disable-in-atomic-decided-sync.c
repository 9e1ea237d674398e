// SPDX-License-Identifier: GPL-2.0
/*
 * tasklet_disable_in_atomic() in the ndo_tx_timeout handler (the shape of
 * sundance's tx_timeout()): the netdev watchdog runs it from a timer, in
 * softirq with interrupts on, and only on a queue stopped by the xmit
 * path after it scheduled the tx tasklet. A decision for the driver makes
 * it disable_work_sync(), which waits for a running callback itself.
 */
#include <linux/interrupt.h>
#include <linux/netdevice.h>

struct ring {
	struct work_struct tx_tasklet;
	unsigned int cur_tx;
	unsigned int cur_task;
};

static void ring_tx_poll(struct work_struct *work)
{
	struct ring *r = from_work(r, work, tx_tasklet);

	r->cur_task = r->cur_tx;
}

static netdev_tx_t ring_start_tx(struct sk_buff *skb, struct net_device *dev)
{
	struct ring *r = netdev_priv(dev);

	r->cur_tx++;
	queue_work(system_bh_wq, &r->tx_tasklet);
	if (r->cur_tx - r->cur_task >= 16)
		netif_stop_queue(dev);
	dev_kfree_skb_any(skb);
	return NETDEV_TX_OK;
}

static void ring_tx_timeout(struct net_device *dev, unsigned int txqueue)
{
	struct ring *r = netdev_priv(dev);

	netif_stop_queue(dev);
	disable_work_sync(&r->tx_tasklet);
	r->cur_tx = 0;
	r->cur_task = 0;
	netif_wake_queue(dev);
	enable_work(&r->tx_tasklet);
}

static int ring_open(struct net_device *dev)
{
	netif_start_queue(dev);
	return 0;
}

static int ring_close(struct net_device *dev)
{
	struct ring *r = netdev_priv(dev);

	cancel_work_sync(&r->tx_tasklet);
	netif_stop_queue(dev);
	return 0;
}

static const struct net_device_ops ring_netdev_ops = {
	.ndo_open		= ring_open,
	.ndo_stop		= ring_close,
	.ndo_start_xmit		= ring_start_tx,
	.ndo_tx_timeout		= ring_tx_timeout,
};

static void ring_setup(struct net_device *dev)
{
	struct ring *r = netdev_priv(dev);

	INIT_WORK(&r->tx_tasklet, ring_tx_poll);
	dev->netdev_ops = &ring_netdev_ops;
}
