// SPDX-License-Identifier: GPL-2.0-only
/*
 * An interrupt handler registered with request_irq(pci_irq_vector(pdev, 0),
 * ...) that stops the error tasklet when the card is dead: it runs in
 * hardirq, where cancel_work_sync() would sleep.
 */
#include <linux/interrupt.h>
#include <linux/pci.h>
#include "dtm.h"

static void dtm_card_err(struct tasklet_struct *t)
{
	struct dtm_card *c = from_tasklet(c, t, err_bh);

	c->dead = false;
}

static void dtm_card_quiesce(struct dtm_card *c)
{
	tasklet_kill(&c->err_bh);
}

static irqreturn_t dtm_card_isr(int irq, void *data)
{
	struct dtm_card *c = data;

	if (c->dead)
		dtm_card_quiesce(c);
	else
		tasklet_schedule(&c->err_bh);
	return IRQ_HANDLED;
}

int dtm_card_probe(struct pci_dev *pdev, struct dtm_card *c)
{
	tasklet_setup(&c->err_bh, dtm_card_err);
	return request_irq(pci_irq_vector(pdev, 0), dtm_card_isr, IRQF_SHARED, "dtm", c);
}
