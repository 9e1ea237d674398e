// SPDX-License-Identifier: GPL-2.0
/* Modern tasklet_setup()/from_tasklet() user, the shape of most drivers. */
#include <linux/interrupt.h>

struct foo_priv {
	void __iomem *regs;
	struct tasklet_struct	rx_tasklet;
	unsigned int pending;
};

static void foo_rx_tasklet(struct tasklet_struct *t)
{
	struct foo_priv *priv = from_tasklet(priv, t, rx_tasklet);

	priv->pending = 0;
}

static irqreturn_t foo_irq(int irq, void *dev_id)
{
	struct foo_priv *priv = dev_id;

	priv->pending++;
	tasklet_schedule(&priv->rx_tasklet);
	return IRQ_HANDLED;
}

static int foo_probe(struct foo_priv *priv)
{
	tasklet_setup(&priv->rx_tasklet, foo_rx_tasklet);
	return 0;
}

static void foo_remove(struct foo_priv *priv)
{
	tasklet_kill(&priv->rx_tasklet);
}
