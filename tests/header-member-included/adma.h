/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The same header, but a driver still includes it, without naming the
 * tasklet member: no code can use the member, which is removed with its
 * kernel-doc line (convert/unused.py), not converted.
 */
#ifndef _ADMA_H
#define _ADMA_H

#include <linux/interrupt.h>

/**
 * struct adma_chan - state of one channel
 * @irq_tasklet: bottom half where the slot cleanup runs
 */
struct adma_chan {
	struct tasklet_struct irq_tasklet;
	int slots_allocated;
};

#endif
