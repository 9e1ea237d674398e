// SPDX-License-Identifier: GPL-2.0
/*
 * The shape of b43legacy's reconfiguration paths: IRQs are masked under
 * irq_lock, then the top and bottom halves are synchronised, which must
 * not happen under irq_lock; the BSS path did it under the lock, and the
 * driver patch drops the lock around it.
 */
#include <linux/interrupt.h>
#include <linux/mutex.h>
#include <net/mac80211.h>

struct b43legacy_wl {
	struct mutex mutex;
	spinlock_t irq_lock;
	u8 bssid[ETH_ALEN];
	struct b43legacy_wldev *current_dev;
};

struct b43legacy_wldev {
	struct b43legacy_wl *wl;
	int irq;
	atomic_t status;
	u32 irq_reason;
	u32 irq_mask;
	void __iomem *mmio;
	struct tasklet_struct isr_tasklet;
};

/* Must not be called with irq_lock held. */
static void b43legacy_synchronize_irq(struct b43legacy_wldev *dev)
{
	synchronize_irq(dev->irq);
	tasklet_kill(&dev->isr_tasklet);
}

static void b43legacy_interrupt_tasklet(struct tasklet_struct *t)
{
	struct b43legacy_wldev *dev = from_tasklet(dev, t, isr_tasklet);
	unsigned long flags;

	spin_lock_irqsave(&dev->wl->irq_lock, flags);
	dev->irq_reason = 0;
	iowrite32(dev->irq_mask, dev->mmio);
	spin_unlock_irqrestore(&dev->wl->irq_lock, flags);
}

static irqreturn_t b43legacy_interrupt_handler(int irq, void *dev_id)
{
	struct b43legacy_wldev *dev = dev_id;

	spin_lock(&dev->wl->irq_lock);
	dev->irq_reason = ioread32(dev->mmio);
	iowrite32(0, dev->mmio);
	tasklet_schedule(&dev->isr_tasklet);
	spin_unlock(&dev->wl->irq_lock);
	return IRQ_HANDLED;
}

static void b43legacy_op_bss_info_changed(struct ieee80211_hw *hw,
					  struct ieee80211_vif *vif,
					  struct ieee80211_bss_conf *conf,
					  u64 changed)
{
	struct b43legacy_wl *wl = hw->priv;
	struct b43legacy_wldev *dev;
	unsigned long flags;

	mutex_lock(&wl->mutex);
	dev = wl->current_dev;

	spin_lock_irqsave(&wl->irq_lock, flags);
	if (atomic_read(&dev->status) < 2) {
		spin_unlock_irqrestore(&wl->irq_lock, flags);
		goto out_unlock_mutex;
	}
	iowrite32(0, dev->mmio);

	if (changed & BSS_CHANGED_BSSID) {
		b43legacy_synchronize_irq(dev);

		memcpy(wl->bssid, conf->bssid, ETH_ALEN);
	}
	spin_unlock_irqrestore(&wl->irq_lock, flags);

	spin_lock_irqsave(&wl->irq_lock, flags);
	iowrite32(dev->irq_mask, dev->mmio);
	spin_unlock_irqrestore(&wl->irq_lock, flags);
out_unlock_mutex:
	mutex_unlock(&wl->mutex);
}

static int b43legacy_one_core_attach(struct b43legacy_wldev *dev)
{
	tasklet_setup(&dev->isr_tasklet, b43legacy_interrupt_tasklet);
	return request_irq(dev->irq, b43legacy_interrupt_handler, IRQF_SHARED,
			   "b43legacy", dev);
}
