// SPDX-License-Identifier: GPL-2.0
/* DECLARE_TASKLET_OLD(): an unsigned long callback, data always 0. */
#include <linux/interrupt.h>

static void sdc_tasklet(struct work_struct *work);
static DECLARE_WORK(sdc_task, sdc_tasklet);

static void sdc_tasklet(struct work_struct *work)
{
	pr_debug("poll\n");
}

static void sdc_irq(void)
{
	queue_work(system_bh_wq, &sdc_task);
}
