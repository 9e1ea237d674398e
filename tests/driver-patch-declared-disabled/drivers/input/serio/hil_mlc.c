// SPDX-License-Identifier: GPL-2.0
/*
 * Declared disabled so that its callback cannot run before the module init
 * has set up the timer it re-arms, while an exported register function,
 * which a driver linked earlier can call first, schedules it:
 * cocci/drivers/hil_mlc.cocci gates the callback on a flag the init sets.
 */
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/timer.h>

static LIST_HEAD(hil_mlcs);
static DEFINE_RWLOCK(hil_mlcs_lock);
static struct timer_list	hil_mlcs_kicker;

static void hil_mlcs_process(unsigned long unused);
static DECLARE_TASKLET_DISABLED_OLD(hil_mlcs_tasklet, hil_mlcs_process);

struct hil_mlc {
	struct list_head list;
	int seidx;
};

static int hilse_donode(struct hil_mlc *mlc)
{
	if (mlc->seidx++ & 1) {
		mod_timer(&hil_mlcs_kicker, jiffies + HZ / 10);
		return 1;
	}
	tasklet_schedule(&hil_mlcs_tasklet);
	return 1;
}

static void hil_mlcs_process(unsigned long unused)
{
	struct list_head *tmp;

	read_lock(&hil_mlcs_lock);
	list_for_each(tmp, &hil_mlcs) {
		struct hil_mlc *mlc = list_entry(tmp, struct hil_mlc, list);

		while (hilse_donode(mlc) == 0)
			;
	}
	read_unlock(&hil_mlcs_lock);
}

int hil_mlc_register(struct hil_mlc *mlc)
{
	unsigned long flags;

	write_lock_irqsave(&hil_mlcs_lock, flags);
	list_add_tail(&mlc->list, &hil_mlcs);
	write_unlock_irqrestore(&hil_mlcs_lock, flags);

	tasklet_schedule(&hil_mlcs_tasklet);
	return 0;
}
EXPORT_SYMBOL(hil_mlc_register);

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
