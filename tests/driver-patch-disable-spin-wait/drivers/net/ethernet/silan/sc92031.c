// SPDX-License-Identifier: GPL-2.0
/*
 * The shape of sc92031: one helper disables the bottom half for the stop
 * path (process context) and for ndo_tx_timeout (the watchdog timer, with
 * the tx lock held); the driver patch makes its wait spin instead of sleep.
 */
#include <linux/interrupt.h>
#include <linux/netdevice.h>
#include <linux/pci.h>

struct sc92031_priv {
	spinlock_t lock;
	void __iomem *port_base;
	struct pci_dev *pdev;
	struct tasklet_struct tasklet;
	u32 intr_status;
	atomic_t intr_mask;
};

static void sc92031_disable_interrupts(struct net_device *dev)
{
	struct sc92031_priv *priv = netdev_priv(dev);

	atomic_set(&priv->intr_mask, 0);
	iowrite32(0, priv->port_base);
	synchronize_irq(priv->pdev->irq);
	tasklet_disable(&priv->tasklet);
}

static void sc92031_enable_interrupts(struct net_device *dev)
{
	struct sc92031_priv *priv = netdev_priv(dev);

	tasklet_enable(&priv->tasklet);
	atomic_set(&priv->intr_mask, 1);
	iowrite32(1, priv->port_base);
}

static void sc92031_tasklet(struct tasklet_struct *t)
{
	struct sc92031_priv *priv = from_tasklet(priv, t, tasklet);
	void __iomem *port_base = priv->port_base;
	u32 intr_status;

	intr_status = priv->intr_status;
	spin_lock(&priv->lock);
	iowrite32(atomic_read(&priv->intr_mask), port_base);
	spin_unlock(&priv->lock);
}

static irqreturn_t sc92031_interrupt(int irq, void *dev_id)
{
	struct net_device *dev = dev_id;
	struct sc92031_priv *priv = netdev_priv(dev);

	priv->intr_status = ioread32(priv->port_base);
	tasklet_schedule(&priv->tasklet);
	return IRQ_HANDLED;
}

static int sc92031_open(struct net_device *dev)
{
	struct sc92031_priv *priv = netdev_priv(dev);
	int err;

	err = request_irq(priv->pdev->irq, sc92031_interrupt, IRQF_SHARED, dev->name, dev);
	if (err)
		return err;
	sc92031_enable_interrupts(dev);
	return 0;
}

static int sc92031_stop(struct net_device *dev)
{
	struct sc92031_priv *priv = netdev_priv(dev);

	sc92031_disable_interrupts(dev);
	free_irq(priv->pdev->irq, dev);
	return 0;
}

static void sc92031_tx_timeout(struct net_device *dev, unsigned int txqueue)
{
	struct sc92031_priv *priv = netdev_priv(dev);

	sc92031_disable_interrupts(dev);
	spin_lock(&priv->lock);
	priv->intr_status = 0;
	spin_unlock(&priv->lock);
	sc92031_enable_interrupts(dev);
}

static const struct net_device_ops sc92031_netdev_ops = {
	.ndo_open	= sc92031_open,
	.ndo_stop	= sc92031_stop,
	.ndo_tx_timeout	= sc92031_tx_timeout,
};

static void sc92031_probe_setup(struct net_device *dev)
{
	struct sc92031_priv *priv = netdev_priv(dev);

	dev->netdev_ops = &sc92031_netdev_ops;
	spin_lock_init(&priv->lock);
	tasklet_setup(&priv->tasklet, sc92031_tasklet);
	tasklet_disable_nosync(&priv->tasklet);
}
