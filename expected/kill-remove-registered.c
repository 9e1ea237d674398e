// SPDX-License-Identifier: GPL-2.0
/*
 * A kill in the function the driver registers as its pci_driver .remove,
 * after free_irq(): proven teardown. The callback drains the RX ring and
 * queues itself again while the budget runs out; it completes no request
 * and wakes nobody, so cancel_work_sync() may drop a pending run.
 */
#include <linux/interrupt.h>
#include <linux/pci.h>

struct rxq_dev {
	struct pci_dev *pdev;
	struct work_struct rx_tasklet;
	unsigned int head, tail;
};

static bool rxq_poll(struct rxq_dev *rq, int budget)
{
	while (budget-- && rq->head != rq->tail)
		rq->tail++;
	return rq->head != rq->tail;
}

static void rxq_rx_tasklet(struct work_struct *work)
{
	struct rxq_dev *rq = from_work(rq, work, rx_tasklet);

	if (rxq_poll(rq, 64))
		queue_work(system_bh_wq, &rq->rx_tasklet);
}

static irqreturn_t rxq_interrupt(int irq, void *data)
{
	struct rxq_dev *rq = data;

	queue_work(system_bh_wq, &rq->rx_tasklet);
	return IRQ_HANDLED;
}

static int rxq_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct rxq_dev *rq;

	rq = devm_kzalloc(&pdev->dev, sizeof(*rq), GFP_KERNEL);
	if (!rq)
		return -ENOMEM;
	rq->pdev = pdev;
	INIT_WORK(&rq->rx_tasklet, rxq_rx_tasklet);
	pci_set_drvdata(pdev, rq);
	return request_irq(pdev->irq, rxq_interrupt, IRQF_SHARED, "rxq", rq);
}

static void rxq_remove(struct pci_dev *pdev)
{
	struct rxq_dev *rq = pci_get_drvdata(pdev);

	free_irq(pdev->irq, rq);
	cancel_work_sync(&rq->rx_tasklet);
}

static struct pci_driver rxq_driver = {
	.name = "rxq",
	.probe = rxq_probe,
	.remove = rxq_remove,
};
module_pci_driver(rxq_driver);
