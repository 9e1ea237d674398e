// SPDX-License-Identifier: GPL-2.0
/*
 * A file-scope tasklet (DECLARE_TASKLET) whose enable nobody decided: the
 * tracked flag is a static next to the work item.
 */
#include <linux/interrupt.h>
#include <linux/module.h>

static unsigned int led_state;

static void led_bh(struct work_struct *work);
static DECLARE_WORK(led_tasklet, led_bh);
static unsigned long led_tasklet_queued;

static void led_bh(struct work_struct *work)
{
	clear_bit(0, &led_tasklet_queued);
	/* Clear before running; pairs with the barrier of the enable. */
	smp_mb__after_atomic();

	led_state ^= 1;
}

void led_event(void)
{
	set_bit(0, &led_tasklet_queued);
	queue_work(system_bh_wq, &led_tasklet);
}

void led_pause(void)
{
	disable_work_sync(&led_tasklet);
}

void led_resume(void)
{
	if (enable_work(&led_tasklet)) {
		/* Pairs with the barrier after clear_bit() in the callback. */
		smp_mb();
		if (test_bit(0, &led_tasklet_queued))
			queue_work(system_bh_wq, &led_tasklet);
	}
}

static void __exit led_exit(void)
{
	cancel_work_sync(&led_tasklet);
}
module_exit(led_exit);
