// SPDX-License-Identifier: GPL-2.0
/*
 * A tasklet declared disabled because its callback must not run before the
 * init, though others schedule it earlier: cocci/drivers/vt-keyboard.cocci
 * declares it enabled and makes the callback return until the init sets a
 * flag. The enables around an update queue a run (the case's decisions).
 */
#include <linux/init.h>
#include <linux/input.h>
#include <linux/interrupt.h>
#include <linux/spinlock.h>

static void kbd_bh(struct tasklet_struct *unused);
static DECLARE_TASKLET_DISABLED(keyboard_tasklet, kbd_bh);

static struct input_handler kbd_handler;
static DEFINE_SPINLOCK(led_lock);
static unsigned int ledstate = -1U;
static unsigned int leds_wanted;

static void set_leds(void)
{
	tasklet_schedule(&keyboard_tasklet);
}

void vt_set_led_state(unsigned int leds)
{
	guard(spinlock_irqsave)(&led_lock);
	leds_wanted = leds;
	set_leds();
}

static void kbd_bh(struct tasklet_struct *unused)
{
	unsigned int leds;

	scoped_guard(spinlock_irqsave, &led_lock)
		leds = leds_wanted;

	if (leds != ledstate)
		ledstate = leds;
}

static void kbd_event(struct input_handle *handle, unsigned int event_type,
		      unsigned int event_code, int value)
{
	tasklet_schedule(&keyboard_tasklet);
}

static void kbd_start(struct input_handle *handle)
{
	tasklet_disable(&keyboard_tasklet);
	if (ledstate != -1U)
		leds_wanted = ledstate;
	tasklet_enable(&keyboard_tasklet);
}

static struct input_handler kbd_handler = {
	.event		= kbd_event,
	.start		= kbd_start,
	.name		= "kbd",
};

int __init kbd_init(void)
{
	int error;

	error = input_register_handler(&kbd_handler);
	if (error)
		return error;

	tasklet_enable(&keyboard_tasklet);
	tasklet_schedule(&keyboard_tasklet);

	return 0;
}
