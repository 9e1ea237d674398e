// SPDX-License-Identifier: GPL-2.0
/*
 * The same helper called after the lock is dropped, with an early-exit
 * branch that unlocks too (b43legacy's switch-channel shape): no lock is
 * held at the kill on any path, the file converts.
 */
#include <linux/interrupt.h>
#include <linux/spinlock.h>

struct wldev {
	struct work_struct isr_tasklet;
	spinlock_t irq_lock;
	int started;
	int irq;
};

static void wldev_synchronize_irq(struct wldev *dev)
{
	synchronize_irq(dev->irq);
	flush_work(&dev->isr_tasklet);
}

static void wldev_switch_channel(struct wldev *dev)
{
	unsigned long flags;

	spin_lock_irqsave(&dev->irq_lock, flags);
	if (!dev->started) {
		spin_unlock_irqrestore(&dev->irq_lock, flags);
		return;
	}
	dev->started = 2;
	spin_unlock_irqrestore(&dev->irq_lock, flags);
	wldev_synchronize_irq(dev);
}
