// SPDX-License-Identifier: GPL-2.0
/*
 * Declared disabled only for the module init to enable it once, before
 * anything can schedule it: cocci/drivers/hil_mlc.cocci.
 */
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/timer.h>

static LIST_HEAD(hil_mlcs);
static struct timer_list	hil_mlcs_kicker;

static void hil_mlcs_process(unsigned long unused);
static DECLARE_TASKLET_DISABLED_OLD(hil_mlcs_tasklet, hil_mlcs_process);

static void hil_mlcs_process(unsigned long unused)
{
	if (!list_empty(&hil_mlcs))
		tasklet_schedule(&hil_mlcs_tasklet);
}

static void hil_mlcs_timer(struct timer_list *unused)
{
	tasklet_schedule(&hil_mlcs_tasklet);
	mod_timer(&hil_mlcs_kicker, jiffies + HZ);
}

static int __init hil_mlc_init(void)
{
	timer_setup(&hil_mlcs_kicker, &hil_mlcs_timer, 0);
	mod_timer(&hil_mlcs_kicker, jiffies + HZ);

	tasklet_enable(&hil_mlcs_tasklet);

	return 0;
}

static void __exit hil_mlc_exit(void)
{
	timer_delete_sync(&hil_mlcs_kicker);
	tasklet_kill(&hil_mlcs_tasklet);
}

module_init(hil_mlc_init);
module_exit(hil_mlc_exit);
