// SPDX-License-Identifier: GPL-2.0
/*
 * The .func of the tasklet is a struct tasklet_struct * callback cast to
 * the unsigned long type, and .data the tasklet's own address: tasklet_setup().
 */
#include <linux/interrupt.h>

struct usb_rx {
	struct delayed_work idle_work;
	struct tasklet_struct reset_timer_tasklet;
};

struct usb_dev {
	struct usb_rx rx;
};

static void usb_reset_rx_idle_timer_tasklet(struct tasklet_struct *t)
{
	struct usb_dev *usb = from_tasklet(usb, t, rx.reset_timer_tasklet);

	mod_delayed_work(system_wq, &usb->rx.idle_work, HZ);
}

static void rx_urb_complete(struct usb_dev *usb)
{
	tasklet_schedule(&usb->rx.reset_timer_tasklet);
}

static inline void init_usb_rx(struct usb_dev *usb)
{
	struct usb_rx *rx = &usb->rx;

	rx->reset_timer_tasklet.func = (void (*))
					usb_reset_rx_idle_timer_tasklet;
	rx->reset_timer_tasklet.data = (unsigned long)&rx->reset_timer_tasklet;
}
