// SPDX-License-Identifier: GPL-2.0
/*
 * drv_stop(): the driver's stop, then a disable/enable pair that syncs
 * away a running handler (decided: the enable queues a run, so frames
 * queued before the stop are still drained).
 */
#include "ieee80211_i.h"

void drv_stop(struct ieee80211_local *local)
{
	local->stop(local);

	/* sync away all work on the tasklet before clearing started */
	tasklet_disable(&local->tasklet);
	tasklet_enable(&local->tasklet);

	local->started = false;
}
