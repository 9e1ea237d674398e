/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shape of mac80211's local: one tasklet drains the frames the driver
 * hands over.
 */
#ifndef IEEE80211_I_H
#define IEEE80211_I_H

#include <linux/interrupt.h>
#include <linux/skbuff.h>

struct ieee80211_local {
	int open_count;
	bool started;
	struct tasklet_struct tasklet;
	struct sk_buff_head skb_queue;
	void (*stop)(struct ieee80211_local *local);
};

void drv_stop(struct ieee80211_local *local);

#endif
