// SPDX-License-Identifier: GPL-2.0-only
/*
 * Two structs with a tasklet member of one name, in the shape of irdma:
 * the device's dpc_tasklet is queued by the device interrupt, each event
 * queue's dpc_tasklet by that queue's interrupt. Both are killed after
 * their interrupts are freed: each kill's sentence names only the handler
 * that queues its own struct's member.
 */
#include <linux/interrupt.h>

struct xr_ceq {
	struct tasklet_struct dpc_tasklet;
	int irq;
	int events;
};

struct xr_pci_f {
	struct tasklet_struct dpc_tasklet;
	struct xr_ceq ceq;
	int irq;
	int events;
};

static void xr_dpc(struct tasklet_struct *t)
{
	struct xr_pci_f *rf = from_tasklet(rf, t, dpc_tasklet);

	rf->events = 0;
}

static void xr_ceq_dpc(struct tasklet_struct *t)
{
	struct xr_ceq *iwceq = from_tasklet(iwceq, t, dpc_tasklet);

	iwceq->events = 0;
}

static irqreturn_t xr_irq_handler(int irq, void *data)
{
	struct xr_pci_f *rf = data;

	rf->events++;
	tasklet_schedule(&rf->dpc_tasklet);
	return IRQ_HANDLED;
}

static irqreturn_t xr_ceq_handler(int irq, void *data)
{
	struct xr_ceq *iwceq = data;

	iwceq->events++;
	tasklet_schedule(&iwceq->dpc_tasklet);
	return IRQ_HANDLED;
}

int xr_setup_irq(struct xr_pci_f *rf)
{
	int err;

	tasklet_setup(&rf->dpc_tasklet, xr_dpc);
	tasklet_setup(&rf->ceq.dpc_tasklet, xr_ceq_dpc);
	err = request_irq(rf->irq, xr_irq_handler, 0, "xr", rf);
	if (err)
		return err;
	err = request_irq(rf->ceq.irq, xr_ceq_handler, 0, "xr-ceq", &rf->ceq);
	if (err)
		free_irq(rf->irq, rf);
	return err;
}

void xr_destroy_irq(struct xr_pci_f *rf, struct xr_ceq *iwceq)
{
	free_irq(rf->irq, rf);
	tasklet_kill(&rf->dpc_tasklet);
	free_irq(iwceq->irq, iwceq);
	tasklet_kill(&iwceq->dpc_tasklet);
}
