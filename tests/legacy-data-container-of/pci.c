// SPDX-License-Identifier: GPL-2.0
#include "mt.h"

int mt_pci_probe(struct mt76_dev *mdev)
{
	struct mt_dev *dev;

	dev = container_of(mdev, struct mt_dev, mt76);
	tasklet_init(&mdev->irq_tasklet, mt_irq_tasklet, (unsigned long)dev);
	return 0;
}
