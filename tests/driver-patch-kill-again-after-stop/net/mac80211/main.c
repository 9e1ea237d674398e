// SPDX-License-Identifier: GPL-2.0
/*
 * The shape of mac80211's unregister: the tasklet is killed before the
 * interfaces are removed, and removing the last one stops the device,
 * whose drv_stop() enable would queue a run again after that kill. The
 * driver patch kills the item again once the interfaces are removed.
 */
#include <linux/interrupt.h>
#include <linux/rtnetlink.h>
#include "ieee80211_i.h"

static void ieee80211_tasklet_handler(struct tasklet_struct *t)
{
	struct ieee80211_local *local = from_tasklet(local, t, tasklet);
	struct sk_buff *skb;

	while ((skb = skb_dequeue(&local->skb_queue)))
		kfree_skb(skb);
}

void ieee80211_rx_irqsafe(struct ieee80211_local *local, struct sk_buff *skb)
{
	skb_queue_tail(&local->skb_queue, skb);
	tasklet_schedule(&local->tasklet);
}
EXPORT_SYMBOL(ieee80211_rx_irqsafe);

static void ieee80211_remove_interfaces(struct ieee80211_local *local)
{
	if (!--local->open_count && local->started)
		drv_stop(local);
}

void ieee80211_alloc_hw(struct ieee80211_local *local)
{
	tasklet_setup(&local->tasklet, ieee80211_tasklet_handler);
	skb_queue_head_init(&local->skb_queue);
}
EXPORT_SYMBOL(ieee80211_alloc_hw);

void ieee80211_unregister_hw(struct ieee80211_local *local)
{
	tasklet_kill(&local->tasklet);

	rtnl_lock();

	/*
	 * At this point, interface list manipulations are fine
	 * because the driver cannot be handing us frames any
	 * more and the tasklet is killed.
	 */
	ieee80211_remove_interfaces(local);

	rtnl_unlock();

	skb_queue_purge(&local->skb_queue);
}
EXPORT_SYMBOL(ieee80211_unregister_hw);
