/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A channel library in the shape of virt-dma: its channel struct holds a
 * tasklet named task, and a driver embeds the channel in its own. The
 * driver also has a device-wide tasklet of the same name, task, with its
 * own callback. The driver's kill of &c->vc.task is the library's item:
 * its sentence names the library's callback, not the driver's.
 */
#ifndef VCHAN_H
#define VCHAN_H
#include <linux/interrupt.h>
#include <linux/list.h>
#include <linux/spinlock.h>

struct vchan {
	struct tasklet_struct task;
	struct list_head desc_completed;
	spinlock_t lock;
};

void vchan_init(struct vchan *vc);
#endif
