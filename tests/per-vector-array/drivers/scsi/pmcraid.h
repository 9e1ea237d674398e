/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PMCRAID_H
#define _PMCRAID_H

#include <linux/interrupt.h>

#define PMCRAID_NUM_MSIX_VECTORS	16

/* ISR parameters LLD allocates (one for each MSI-X if enabled) vectors */
struct pmcraid_isr_param {
	struct pmcraid_instance *drv_inst;
	u8 hrrq_id;			/* hrrq entry index */
};

struct pmcraid_instance {
	struct pmcraid_isr_param hrrq_vector[PMCRAID_NUM_MSIX_VECTORS];
	int num_hrrq;

	/* Tasklet to handle deferred processing */
	struct tasklet_struct isr_tasklet[PMCRAID_NUM_MSIX_VECTORS];
};

#endif
