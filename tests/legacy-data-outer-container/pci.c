// SPDX-License-Identifier: GPL-2.0
#include "mt.h"

int mt_pci_probe(struct mt_dev *dev)
{
	struct mt76_dev *mdev;

	mdev = &dev->mt76;
	tasklet_init(&mdev->irq_tasklet, mt_irq_tasklet, (unsigned long)dev);
	return 0;
}

void mt_pci_remove(struct mt_dev *dev)
{
	tasklet_kill(&dev->mt76.irq_tasklet);
}
