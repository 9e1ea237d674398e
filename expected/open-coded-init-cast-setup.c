// SPDX-License-Identifier: GPL-2.0
/*
 * The .func of the tasklet is a struct tasklet_struct * callback cast to
 * the unsigned long type, and .data the tasklet's own address: tasklet_setup().
 */
#include <linux/interrupt.h>

struct usb_rx {
	struct delayed_work idle_work;
	struct work_struct reset_timer_tasklet;
};

struct usb_dev {
	struct usb_rx rx;
};

static void usb_reset_rx_idle_timer_tasklet(struct work_struct *work)
{
	struct usb_dev *usb = from_work(usb, work, rx.reset_timer_tasklet);

	mod_delayed_work(system_wq, &usb->rx.idle_work, HZ);
}

static void rx_urb_complete(struct usb_dev *usb)
{
	queue_work(system_bh_wq, &usb->rx.reset_timer_tasklet);
}

static inline void init_usb_rx(struct usb_dev *usb)
{
	struct usb_rx *rx = &usb->rx;

	INIT_WORK(&rx->reset_timer_tasklet, usb_reset_rx_idle_timer_tasklet);
}
