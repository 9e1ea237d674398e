/* SPDX-License-Identifier: GPL-2.0-only */
/* A test module in the shape of an old out-of-tree NIC driver. */
#ifndef DTM_H
#define DTM_H

#include <linux/interrupt.h>
#include <linux/spinlock.h>

struct dtm_dev {
	spinlock_t lock;
	unsigned int rx_pending;
	unsigned int events;
	struct tasklet_struct rx_tasklet;
	struct tasklet_struct evt_tasklet;
};

void dtm_rx_tasklet(unsigned long data);
void dtm_rx_kick(struct dtm_dev *dev);

#endif
