/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shape of mac802154's local: one tasklet drains the frames the driver
 * hands over (ieee802154_rx_irqsafe()).
 */
#ifndef __IEEE802154_I_H
#define __IEEE802154_I_H

#include <linux/interrupt.h>
#include <linux/skbuff.h>
#include <linux/workqueue.h>

struct ieee802154_local {
	int open_count;
	struct tasklet_struct tasklet;
	struct sk_buff_head skb_queue;
	struct workqueue_struct *workqueue;
	void (*stop)(struct ieee802154_local *local);
};

void ieee802154_stop_device(struct ieee802154_local *local);
void ieee802154_remove_interfaces(struct ieee802154_local *local);

#endif
