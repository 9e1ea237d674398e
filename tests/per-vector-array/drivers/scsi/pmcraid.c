// SPDX-License-Identifier: GPL-2.0
/*
 * One tasklet per HRRQ, in an array beside the array of HRRQ vectors that
 * are its data: convert/per_vector.py.
 */
#include "pmcraid.h"

static irqreturn_t pmcraid_isr_msix(int irq, void *dev_id)
{
	struct pmcraid_isr_param *hrrq_vector = dev_id;
	struct pmcraid_instance *pinstance = hrrq_vector->drv_inst;
	int hrrq_id = hrrq_vector->hrrq_id;

	tasklet_schedule(&(pinstance->isr_tasklet[hrrq_id]));
	return IRQ_HANDLED;
}

static void pmcraid_tasklet_function(unsigned long instance)
{
	struct pmcraid_isr_param *hrrq_vector;

	hrrq_vector = (struct pmcraid_isr_param *)instance;
	hrrq_vector->drv_inst->num_hrrq++;
}

static void pmcraid_init_tasklets(struct pmcraid_instance *pinstance)
{
	int i;
	for (i = 0; i < pinstance->num_hrrq; i++)
		tasklet_init(&pinstance->isr_tasklet[i],
			     pmcraid_tasklet_function,
			     (unsigned long)&pinstance->hrrq_vector[i]);
}
