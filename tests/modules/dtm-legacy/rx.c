// SPDX-License-Identifier: GPL-2.0-only
/* The receive half: a legacy tasklet callback taking unsigned long data. */
#include "dtm.h"

void dtm_rx_tasklet(unsigned long data)
{
	struct dtm_dev *dev = (struct dtm_dev *)data;
	unsigned long flags;

	spin_lock_irqsave(&dev->lock, flags);
	dev->rx_pending = 0;
	spin_unlock_irqrestore(&dev->lock, flags);
}

void dtm_rx_kick(struct dtm_dev *dev)
{
	tasklet_schedule(&dev->rx_tasklet);
}
