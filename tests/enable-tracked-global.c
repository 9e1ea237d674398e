// SPDX-License-Identifier: GPL-2.0
/*
 * A file-scope tasklet (DECLARE_TASKLET) whose enable nobody decided: the
 * tracked flag is a static next to the work item.
 */
#include <linux/interrupt.h>
#include <linux/module.h>

static unsigned int led_state;

static void led_bh(struct tasklet_struct *unused);
static DECLARE_TASKLET(led_tasklet, led_bh);

static void led_bh(struct tasklet_struct *unused)
{
	led_state ^= 1;
}

void led_event(void)
{
	tasklet_schedule(&led_tasklet);
}

void led_pause(void)
{
	tasklet_disable(&led_tasklet);
}

void led_resume(void)
{
	tasklet_enable(&led_tasklet);
}

static void __exit led_exit(void)
{
	tasklet_kill(&led_tasklet);
}
module_exit(led_exit);
