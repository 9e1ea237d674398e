// SPDX-License-Identifier: GPL-2.0
/*
 * A PCI card's .remove waits for a running RX tasklet after freeing the
 * interrupt, before it frees what the tasklet reads (solos-pci's shape, in
 * teardown): flush_work() also waits for a pending run, one the tasklet
 * could have made at that point as well.
 */
#include <linux/interrupt.h>
#include <linux/pci.h>
#include <linux/slab.h>

struct card {
	struct pci_dev *dev;
	struct work_struct rx_tlet;
	void *rx_ring;
};

static void card_rx(struct work_struct *work)
{
	struct card *card = from_work(card, work, rx_tlet);

	memset(card->rx_ring, 0, 64);
}

static irqreturn_t card_irq(int irq, void *dev_id)
{
	struct card *card = dev_id;

	queue_work(system_bh_wq, &card->rx_tlet);
	return IRQ_HANDLED;
}

static int card_probe(struct pci_dev *dev, const struct pci_device_id *id)
{
	struct card *card = kzalloc(sizeof(*card), GFP_KERNEL);

	if (!card)
		return -ENOMEM;
	card->rx_ring = kzalloc(64, GFP_KERNEL);
	INIT_WORK(&card->rx_tlet, card_rx);
	pci_set_drvdata(dev, card);
	return request_irq(dev->irq, card_irq, IRQF_SHARED, "card", card);
}

static void card_remove(struct pci_dev *dev)
{
	struct card *card = pci_get_drvdata(dev);

	free_irq(dev->irq, card);
	flush_work(&card->rx_tlet);
	kfree(card->rx_ring);
	kfree(card);
}

static struct pci_driver card_driver = {
	.name = "card",
	.probe = card_probe,
	.remove = card_remove,
};
module_pci_driver(card_driver);
