// SPDX-License-Identifier: GPL-2.0
/*
 * A function spatch cannot parse holds a tasklet use: the textual
 * fallback would rename its struct tasklet_struct, but no rule that
 * parsed that code rewrote it, so the file is refused.
 */
#include <linux/interrupt.h>

struct pf_dev {
	struct tasklet_struct	rx_tasklet;
	unsigned int		pending;
};

static void pf_rx(struct tasklet_struct *t)
{
	struct pf_dev *pf = from_tasklet(pf, t, rx_tasklet);

	pf->pending = 0;
}

static int pf_debug_show(struct pf_dev *pf, int v)
{
	struct tasklet_struct *t = &pf->rx_tasklet;

	if (( {
		return t != NULL;
}

static irqreturn_t pf_irq(int irq, void *data)
{
	struct pf_dev *pf = data;

	pf->pending++;
	tasklet_schedule(&pf->rx_tasklet);
	return IRQ_HANDLED;
}

static void pf_probe(struct pf_dev *pf)
{
	tasklet_setup(&pf->rx_tasklet, pf_rx);
}

static void pf_remove(struct pf_dev *pf)
{
	tasklet_kill(&pf->rx_tasklet);
}
