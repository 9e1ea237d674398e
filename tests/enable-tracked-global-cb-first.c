// SPDX-License-Identifier: GPL-2.0
/*
 * A file-scope tasklet whose callback is defined above its
 * DECLARE_TASKLET(): the tracked flag goes above the callback, which
 * names it.
 */
#include <linux/interrupt.h>

static int kbd_leds;

static void kbd_bh(struct tasklet_struct *unused)
{
	kbd_leds++;
}

static DECLARE_TASKLET(keyboard_tasklet, kbd_bh);

void kbd_event(void)
{
	tasklet_schedule(&keyboard_tasklet);
}

void kbd_start(void)
{
	tasklet_disable(&keyboard_tasklet);
	kbd_leds = 0;
	tasklet_enable(&keyboard_tasklet);
}
