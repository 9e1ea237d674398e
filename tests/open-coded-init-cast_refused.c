// SPDX-License-Identifier: GPL-2.0
/*
 * A struct tasklet_struct * callback cast to .func, but .data is not the
 * tasklet: the callback gets another pointer than its type says.
 */
#include <linux/interrupt.h>

struct usb_rx {
	struct tasklet_struct reset_timer_tasklet;
	int resets;
};

static void usb_reset_tasklet(struct tasklet_struct *t)
{
	struct usb_rx *rx = from_tasklet(rx, t, reset_timer_tasklet);

	rx->resets++;
}

static void init_usb_rx(struct usb_rx *rx)
{
	rx->reset_timer_tasklet.func = (void (*)(unsigned long))usb_reset_tasklet;
	rx->reset_timer_tasklet.data = (unsigned long)rx;
	tasklet_schedule(&rx->reset_timer_tasklet);
}
