// SPDX-License-Identifier: GPL-2.0
/* A static tasklet declared with DECLARE_TASKLET(). */
#include <linux/interrupt.h>

static void kbd_bh(struct work_struct *work);
static DECLARE_WORK(keyboard_tasklet, kbd_bh);

static void kbd_bh(struct work_struct *work)
{
	pr_debug("leds\n");
}

static void kbd_event(void)
{
	queue_work(system_bh_wq, &keyboard_tasklet);
}
