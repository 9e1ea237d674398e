// SPDX-License-Identifier: GPL-2.0
#include "a.h"

static void a_rx(struct tasklet_struct *t)
{
	struct a_priv *p = from_tasklet(p, t, rx_tasklet);

	p->irq = 0;
}

static irqreturn_t a_isr(int irq, void *data)
{
	struct a_priv *p = data;

	tasklet_schedule(&p->rx_tasklet);
	return IRQ_HANDLED;
}

int a_up(struct a_priv *p)
{
	tasklet_setup(&p->rx_tasklet, a_rx);
	return request_irq(p->irq, a_isr, 0, "a", p);
}
