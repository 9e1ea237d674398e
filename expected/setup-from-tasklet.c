// SPDX-License-Identifier: GPL-2.0
/* Modern tasklet_setup()/from_tasklet() user, the shape of most drivers. */
#include <linux/interrupt.h>

struct foo_priv {
	void __iomem *regs;
	struct work_struct	rx_tasklet;
	unsigned int pending;
};

static void foo_rx_tasklet(struct work_struct *work)
{
	struct foo_priv *priv = from_work(priv, work, rx_tasklet);

	priv->pending = 0;
}

static irqreturn_t foo_irq(int irq, void *dev_id)
{
	struct foo_priv *priv = dev_id;

	priv->pending++;
	queue_work(system_bh_wq, &priv->rx_tasklet);
	return IRQ_HANDLED;
}

static int foo_probe(struct foo_priv *priv)
{
	INIT_WORK(&priv->rx_tasklet, foo_rx_tasklet);
	return 0;
}

static void foo_remove(struct foo_priv *priv)
{
	flush_work(&priv->rx_tasklet);
}
