// SPDX-License-Identifier: GPL-2.0
/*
 * A file-scope tasklet whose callback is defined above its
 * DECLARE_TASKLET(): the tracked flag goes above the callback, which
 * names it.
 */
#include <linux/interrupt.h>

static int kbd_leds;

static unsigned long keyboard_tasklet_queued;

static void kbd_bh(struct work_struct *work)
{
	clear_bit(0, &keyboard_tasklet_queued);
	/* Clear before running; pairs with the barrier of the enable. */
	smp_mb__after_atomic();

	kbd_leds++;
}

static DECLARE_WORK(keyboard_tasklet, kbd_bh);

void kbd_event(void)
{
	set_bit(0, &keyboard_tasklet_queued);
	queue_work(system_bh_wq, &keyboard_tasklet);
}

void kbd_start(void)
{
	disable_work_sync(&keyboard_tasklet);
	kbd_leds = 0;
	if (enable_work(&keyboard_tasklet)) {
		/* Pairs with the barrier after clear_bit() in the callback. */
		smp_mb();
		if (test_bit(0, &keyboard_tasklet_queued))
			queue_work(system_bh_wq, &keyboard_tasklet);
	}
}
