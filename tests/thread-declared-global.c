// SPDX-License-Identifier: GPL-2.0
/* A keyboard-controller shape: one global bottom half. */
#include <linux/interrupt.h>
#include <linux/module.h>

static unsigned int fake_events;

static void fake_kbd_bh(struct tasklet_struct *unused)
{
	fake_events = 0;
}

/* Runs the event queue. */
static DECLARE_TASKLET(fake_kbd_tasklet, fake_kbd_bh);

static irqreturn_t fake_kbd_irq(int irq, void *dev_id)
{
	fake_events++;
	tasklet_schedule(&fake_kbd_tasklet);
	return IRQ_HANDLED;
}

static void __exit fake_kbd_exit(void)
{
	tasklet_kill(&fake_kbd_tasklet);
}
module_exit(fake_kbd_exit);
