// SPDX-License-Identifier: GPL-2.0
/* A keyboard-controller shape: one global bottom half. */
#include <linux/interrupt.h>
#include <linux/module.h>

static unsigned int fake_events;

static void fake_kbd_bh(struct work_struct *work)
{
	fake_events = 0;
}

/* fake_kbd_bh() ran in softirq context: keep softirqs off while it runs. */
static void fake_kbd_bh_bh_off(struct work_struct *work)
{
	local_bh_disable();
	fake_kbd_bh(work);
	local_bh_enable();
}

/* Runs the event queue. */
static DECLARE_WORK(fake_kbd_tasklet, fake_kbd_bh_bh_off);

static irqreturn_t fake_kbd_irq(int irq, void *dev_id)
{
	fake_events++;
	queue_work(system_percpu_wq, &fake_kbd_tasklet);
	return IRQ_HANDLED;
}

static void __exit fake_kbd_exit(void)
{
	cancel_work_sync(&fake_kbd_tasklet);
}
module_exit(fake_kbd_exit);
