// SPDX-License-Identifier: GPL-2.0
/* A static tasklet declared with DECLARE_TASKLET(). */
#include <linux/interrupt.h>

static void kbd_bh(struct tasklet_struct *unused);
static DECLARE_TASKLET(keyboard_tasklet, kbd_bh);

static void kbd_bh(struct tasklet_struct *unused)
{
	pr_debug("leds\n");
}

static void kbd_event(void)
{
	tasklet_schedule(&keyboard_tasklet);
}
