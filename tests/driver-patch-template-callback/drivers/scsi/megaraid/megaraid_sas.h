/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MEGARAID_SAS_H
#define MEGARAID_SAS_H

#include <linux/interrupt.h>

struct megasas_instance;

struct megasas_instance_template {
	void (*tasklet)(unsigned long);
	void (*enable_intr)(struct megasas_instance *);
};

struct megasas_instance {
	struct megasas_instance_template *instancet;
	struct tasklet_struct isr_tasklet;
	int fusion;
};

#endif
