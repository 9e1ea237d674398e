// SPDX-License-Identifier: GPL-2.0
/*
 * A comment whose point was a difference from tasklet_schedule() (the
 * shape of usbnet's usbnet_defer_kevent()): queue_work() on a BH
 * workqueue fails on a pending item as schedule_work() does, so renaming
 * the call would make the comment false; the comparison goes instead.
 */
#include <linux/interrupt.h>
#include <linux/netdevice.h>
#include <linux/workqueue.h>

struct usbnet {
	struct tasklet_struct bh;
	struct work_struct kevent;
	unsigned long flags;
};

static void usbnet_bh(struct tasklet_struct *t)
{
	struct usbnet *dev = from_tasklet(dev, t, bh);

	clear_bit(0, &dev->flags);
}

static void defer_bh(struct usbnet *dev)
{
	tasklet_schedule(&dev->bh);
}

/* some work can't be done in tasklets, so we use keventd
 *
 * NOTE:  annoying asymmetry:  if it's active, schedule_work() fails,
 * but tasklet_schedule() doesn't.  hope the failure is rare.
 */
void usbnet_defer_kevent(struct usbnet *dev, int work)
{
	set_bit(work, &dev->flags);
	if (!schedule_work(&dev->kevent))
		pr_debug("kevent %d may have been dropped\n", work);
}

void usbnet_setup(struct usbnet *dev)
{
	tasklet_setup(&dev->bh, usbnet_bh);
}
