// SPDX-License-Identifier: GPL-2.0
/* A tasklet that starts disabled: no static disabled work initializer. */
#include <linux/interrupt.h>

static void kp_tasklet(unsigned long data);
static DECLARE_TASKLET_DISABLED_OLD(kp_task, kp_tasklet);

static void kp_tasklet(unsigned long data)
{
}

static void kp_open(void)
{
	tasklet_enable(&kp_task);
}
