// SPDX-License-Identifier: GPL-2.0
/*
 * A network driver whose receive tasklet hands each frame to the stack
 * through a hook the upper layer set (priv->deliver(), never set by the
 * driver). Its transmit function is static, but its address goes into the
 * net_device_ops the stack calls, and it queues the same tasklet to reap
 * the ring: an upper layer that answers a frame from inside deliver()
 * reaches ndo_start_xmit and queues the tasklet again. Refused, naming the
 * ops entry and the unread call.
 */
#include <linux/interrupt.h>
#include <linux/netdevice.h>
#include <linux/platform_device.h>

struct nrx_priv {
	struct tasklet_struct ring_task;
	void (*deliver)(struct net_device *dev, struct sk_buff *skb);
	struct net_device *dev;
	struct sk_buff *pending;
};

static void nrx_ring_task(struct tasklet_struct *t)
{
	struct nrx_priv *priv = from_tasklet(priv, t, ring_task);

	if (priv->pending)
		priv->deliver(priv->dev, priv->pending);
}

static netdev_tx_t nrx_start_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct nrx_priv *priv = netdev_priv(dev);

	dev_kfree_skb_any(skb);
	tasklet_schedule(&priv->ring_task);
	return NETDEV_TX_OK;
}

static int nrx_stop(struct net_device *dev)
{
	struct nrx_priv *priv = netdev_priv(dev);

	tasklet_kill(&priv->ring_task);
	return 0;
}

static const struct net_device_ops nrx_netdev_ops = {
	.ndo_start_xmit = nrx_start_xmit,
	.ndo_stop = nrx_stop,
};

static int nrx_probe(struct platform_device *pdev)
{
	struct nrx_priv *priv = platform_get_drvdata(pdev);

	tasklet_setup(&priv->ring_task, nrx_ring_task);
	priv->dev->netdev_ops = &nrx_netdev_ops;
	return 0;
}

static struct platform_driver nrx_driver = {
	.probe = nrx_probe,
};
