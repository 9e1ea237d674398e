// SPDX-License-Identifier: GPL-2.0
/*
 * The callback of the tasklet is the controller template's function
 * pointer, fixed at probe before the init: cocci/drivers/megaraid_sas.cocci.
 */
#include "megaraid_sas.h"

static void megasas_complete_cmd_dpc(unsigned long instance_addr);

static struct megasas_instance_template megasas_instance_template_xscale = {
	.tasklet = megasas_complete_cmd_dpc,
};

static void megasas_complete_cmd_dpc(unsigned long instance_addr)
{
	struct megasas_instance *instance =
	    (struct megasas_instance *)instance_addr;

	instance->fusion = 0;
}

static int megasas_isr(struct megasas_instance *instance)
{
	tasklet_schedule(&instance->isr_tasklet);
	return 1;
}

static int megasas_init_fw(struct megasas_instance *instance)
{
	instance->instancet = &megasas_instance_template_xscale;

	tasklet_init(&instance->isr_tasklet, instance->instancet->tasklet,
		(unsigned long)instance);
	return 0;
}

static int megasas_resume(struct megasas_instance *instance)
{
	tasklet_init(&instance->isr_tasklet, instance->instancet->tasklet,
		     (unsigned long)instance);
	return megasas_isr(instance);
}
