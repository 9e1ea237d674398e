// SPDX-License-Identifier: GPL-2.0
/*
 * tasklet_kill() through a helper, called while irq_lock is held with
 * interrupts off (b43legacy's bss_info_changed shape): cancel_work_sync()
 * would sleep there and turn interrupts back on.
 */
#include <linux/interrupt.h>
#include <linux/spinlock.h>

struct wldev {
	struct tasklet_struct isr_tasklet;
	spinlock_t irq_lock;
	int started;
	int irq;
};

static void wldev_synchronize_irq(struct wldev *dev)
{
	synchronize_irq(dev->irq);
	tasklet_kill(&dev->isr_tasklet);
}

static void wldev_bss_changed(struct wldev *dev, int bssid)
{
	unsigned long flags;

	spin_lock_irqsave(&dev->irq_lock, flags);
	if (!dev->started) {
		spin_unlock_irqrestore(&dev->irq_lock, flags);
		return;
	}
	if (bssid)
		wldev_synchronize_irq(dev);
	spin_unlock_irqrestore(&dev->irq_lock, flags);
}
