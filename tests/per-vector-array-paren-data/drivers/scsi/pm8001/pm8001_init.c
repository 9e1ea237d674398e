// SPDX-License-Identifier: GPL-2.0
/*
 * One tasklet per interrupt vector, in an array beside the array of
 * vectors that are its data: convert/per_vector.py.
 */
#include "pm8001_sas.h"

static void pm8001_tasklet(unsigned long opaque)
{
	struct isr_param *irq_vector = (struct isr_param *)opaque;
	struct pm8001_hba_info *pm8001_ha = irq_vector->drv_inst;

	pm8001_ha->logging_level = irq_vector->irq_id;
}

static void pm8001_init_tasklet(struct pm8001_hba_info *pm8001_ha, bool msix)
{
	int i;

	if (!msix) {
		tasklet_init(&pm8001_ha->tasklet[0], pm8001_tasklet,
			     (unsigned long)&(pm8001_ha->irq_vector[0]));
		return;
	}
	for (i = 0; i < PM8001_MAX_MSIX_VEC; i++)
		tasklet_init(&pm8001_ha->tasklet[i], pm8001_tasklet,
			     (unsigned long)&(pm8001_ha->irq_vector[i]));
}

static irqreturn_t pm8001_handle_irq(struct pm8001_hba_info *pm8001_ha, int irq)
{
	tasklet_schedule(&pm8001_ha->tasklet[irq]);
	return IRQ_HANDLED;
}
