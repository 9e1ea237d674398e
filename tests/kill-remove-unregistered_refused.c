// SPDX-License-Identifier: GPL-2.0
/*
 * A kill in the function the driver only names like a remove callback: it
 * is registered nowhere (the bus driver of another file calls it, or
 * nothing does), so nothing proves the device goes away there. The
 * callback queues itself again, which flush_work() cannot wait out:
 * refused.
 */
#include <linux/interrupt.h>
#include <linux/pci.h>

struct rxq_dev {
	struct pci_dev *pdev;
	struct tasklet_struct rx_tasklet;
	unsigned int head, tail;
};

static bool rxq_poll(struct rxq_dev *rq, int budget)
{
	while (budget-- && rq->head != rq->tail)
		rq->tail++;
	return rq->head != rq->tail;
}

static void rxq_rx_tasklet(struct tasklet_struct *t)
{
	struct rxq_dev *rq = from_tasklet(rq, t, rx_tasklet);

	if (rxq_poll(rq, 64))
		tasklet_schedule(&rq->rx_tasklet);
}

static irqreturn_t rxq_interrupt(int irq, void *data)
{
	struct rxq_dev *rq = data;

	tasklet_schedule(&rq->rx_tasklet);
	return IRQ_HANDLED;
}

int rxq_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct rxq_dev *rq;

	rq = devm_kzalloc(&pdev->dev, sizeof(*rq), GFP_KERNEL);
	if (!rq)
		return -ENOMEM;
	rq->pdev = pdev;
	tasklet_setup(&rq->rx_tasklet, rxq_rx_tasklet);
	pci_set_drvdata(pdev, rq);
	return request_irq(pdev->irq, rxq_interrupt, IRQF_SHARED, "rxq", rq);
}

void rxq_remove(struct pci_dev *pdev)
{
	struct rxq_dev *rq = pci_get_drvdata(pdev);

	free_irq(pdev->irq, rq);
	tasklet_kill(&rq->rx_tasklet);
}

