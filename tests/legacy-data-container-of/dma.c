// SPDX-License-Identifier: GPL-2.0
#include "mt.h"

void mt_irq_tasklet(unsigned long data)
{
	struct mt_dev *dev = (struct mt_dev *)data;

	dev->irqs++;
}
