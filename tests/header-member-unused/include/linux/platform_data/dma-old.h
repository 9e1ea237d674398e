/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Platform data of a DMA engine whose driver was removed: nothing in the
 * tree includes this header any more, so its tasklet member is dead and
 * goes with its kernel-doc line, rather than becoming a work item.
 */
#ifndef _DMA_OLD_H
#define _DMA_OLD_H

#include <linux/interrupt.h>

/**
 * struct old_adma_chan - state of one channel
 * @lock: serializes the descriptor lists
 * @irq_tasklet: bottom half where the slot cleanup runs,
 *	once per interrupt
 * @slots_allocated: records the actual size of the descriptor slot pool
 */
struct old_adma_chan {
	spinlock_t lock;
	struct tasklet_struct irq_tasklet;
	int slots_allocated;
};

#endif
