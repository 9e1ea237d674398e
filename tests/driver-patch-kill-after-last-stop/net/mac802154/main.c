// SPDX-License-Identifier: GPL-2.0
/*
 * The shape of mac802154's unregister: the tasklet was killed before the
 * interfaces were removed, and removing the last one stops the device,
 * whose drv_stop() enable queues a run again after that kill. The driver
 * patch kills after the interfaces are gone.
 */
#include <linux/interrupt.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include "ieee802154_i.h"
#include "driver-ops.h"

static void ieee802154_tasklet_handler(struct tasklet_struct *t)
{
	struct ieee802154_local *local = from_tasklet(local, t, tasklet);
	struct sk_buff *skb;

	while ((skb = skb_dequeue(&local->skb_queue)))
		kfree_skb(skb);
}

void ieee802154_rx_irqsafe(struct ieee802154_local *local, struct sk_buff *skb)
{
	skb_queue_tail(&local->skb_queue, skb);
	tasklet_schedule(&local->tasklet);
}
EXPORT_SYMBOL(ieee802154_rx_irqsafe);

void ieee802154_stop_device(struct ieee802154_local *local)
{
	flush_workqueue(local->workqueue);
	drv_stop(local);
}

void ieee802154_remove_interfaces(struct ieee802154_local *local)
{
	if (!--local->open_count)
		ieee802154_stop_device(local);
}

void ieee802154_alloc_hw(struct ieee802154_local *local)
{
	tasklet_setup(&local->tasklet, ieee802154_tasklet_handler);
	skb_queue_head_init(&local->skb_queue);
}
EXPORT_SYMBOL(ieee802154_alloc_hw);

void ieee802154_unregister_hw(struct ieee802154_local *local)
{
	tasklet_kill(&local->tasklet);
	flush_workqueue(local->workqueue);

	rtnl_lock();

	ieee802154_remove_interfaces(local);

	rtnl_unlock();

	destroy_workqueue(local->workqueue);
}
EXPORT_SYMBOL(ieee802154_unregister_hw);
