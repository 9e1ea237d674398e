// SPDX-License-Identifier: GPL-2.0
/*
 * The shape of ks8842's DMA setup: the allocation function sets its RX
 * tasklet up only after its last failure exit, while every failure exit
 * goes to the function that kills it; the driver patch sets it up first.
 */
#include <linux/dmaengine.h>
#include <linux/interrupt.h>
#include <linux/netdevice.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

struct ks8842_rx_dma_ctl {
	struct dma_chan *chan;
	struct dma_async_tx_descriptor *adesc;
	struct sk_buff *skb;
	struct tasklet_struct tasklet;
	int channel;
};

struct ks8842_adapter {
	struct net_device *netdev;
	struct scatterlist tx_sg;
	void *tx_buf;
	struct ks8842_rx_dma_ctl dma_rx;
};

static void ks8842_rx_frame_dma_tasklet(struct tasklet_struct *t)
{
	struct ks8842_adapter *adapter = from_tasklet(adapter, t, dma_rx.tasklet);

	netif_rx(adapter->dma_rx.skb);
	adapter->dma_rx.skb = NULL;
}

static void ks8842_dma_rx_cb(void *data)
{
	struct ks8842_adapter *adapter = netdev_priv(data);

	if (adapter->dma_rx.adesc)
		tasklet_schedule(&adapter->dma_rx.tasklet);
}

static void ks8842_dealloc_dma_bufs(struct ks8842_adapter *adapter)
{
	struct ks8842_rx_dma_ctl *rx_ctl = &adapter->dma_rx;

	rx_ctl->adesc = NULL;
	if (rx_ctl->chan)
		dma_release_channel(rx_ctl->chan);
	rx_ctl->chan = NULL;

	tasklet_kill(&rx_ctl->tasklet);

	kfree(adapter->tx_buf);
	adapter->tx_buf = NULL;
}

static int ks8842_alloc_dma_bufs(struct net_device *netdev)
{
	struct ks8842_adapter *adapter = netdev_priv(netdev);
	struct ks8842_rx_dma_ctl *rx_ctl = &adapter->dma_rx;
	dma_cap_mask_t mask;
	int err;

	dma_cap_zero(mask);
	dma_cap_set(DMA_SLAVE, mask);

	sg_init_table(&adapter->tx_sg, 1);

	adapter->tx_buf = kmalloc(2048, GFP_KERNEL);
	if (!adapter->tx_buf) {
		err = -ENOMEM;
		goto err;
	}

	rx_ctl->chan = dma_request_channel(mask, NULL, NULL);
	if (!rx_ctl->chan) {
		err = -ENODEV;
		goto err;
	}

	tasklet_setup(&rx_ctl->tasklet, ks8842_rx_frame_dma_tasklet);

	return 0;
err:
	ks8842_dealloc_dma_bufs(adapter);
	return err;
}

static int ks8842_open(struct net_device *netdev)
{
	struct ks8842_adapter *adapter = netdev_priv(netdev);
	int err;

	err = ks8842_alloc_dma_bufs(netdev);
	if (err) {
		ks8842_dealloc_dma_bufs(adapter);
		return err;
	}
	adapter->dma_rx.adesc = dmaengine_prep_slave_sg(adapter->dma_rx.chan, NULL, 0,
							DMA_DEV_TO_MEM, 0);
	adapter->dma_rx.adesc->callback = ks8842_dma_rx_cb;
	adapter->dma_rx.adesc->callback_param = netdev;
	return 0;
}

static int ks8842_close(struct net_device *netdev)
{
	ks8842_dealloc_dma_bufs(netdev_priv(netdev));
	return 0;
}

static const struct net_device_ops ks8842_netdev_ops = {
	.ndo_open	= ks8842_open,
	.ndo_stop	= ks8842_close,
};
