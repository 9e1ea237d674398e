// SPDX-License-Identifier: GPL-2.0
/*
 * An interrupt handler registered with a call as its first argument,
 * request_irq(pci_irq_vector(pdev, 0), ...), that reaches tasklet_kill():
 * the handler runs in hardirq, where cancel_work_sync() may not sleep.
 * Refused, with the registration.
 */
#include <linux/interrupt.h>
#include <linux/pci.h>

struct card {
	struct tasklet_struct err_bh;
	bool dead;
};

static void card_err(struct tasklet_struct *t)
{
	struct card *c = from_tasklet(c, t, err_bh);

	c->dead = false;
}

static void card_quiesce(struct card *c)
{
	tasklet_kill(&c->err_bh);
}

static irqreturn_t card_isr(int irq, void *data)
{
	struct card *c = data;

	if (c->dead)
		card_quiesce(c);
	else
		tasklet_schedule(&c->err_bh);
	return IRQ_HANDLED;
}

static int card_probe(struct pci_dev *pdev, struct card *c)
{
	tasklet_setup(&c->err_bh, card_err);
	return request_irq(pci_irq_vector(pdev, 0), card_isr, IRQF_SHARED, "card", c);
}
