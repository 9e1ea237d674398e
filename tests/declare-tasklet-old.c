// SPDX-License-Identifier: GPL-2.0
/* DECLARE_TASKLET_OLD(): an unsigned long callback, data always 0. */
#include <linux/interrupt.h>

static void sdc_tasklet(unsigned long foo);
static DECLARE_TASKLET_OLD(sdc_task, sdc_tasklet);

static void sdc_tasklet(unsigned long foo)
{
	pr_debug("poll\n");
}

static void sdc_irq(void)
{
	tasklet_schedule(&sdc_task);
}
