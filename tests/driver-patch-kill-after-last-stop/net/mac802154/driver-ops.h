/* SPDX-License-Identifier: GPL-2.0 */
/*
 * drv_stop(): the driver's stop, then a disable/enable pair that syncs
 * away a running handler (decided: the enable queues a run, so frames
 * queued before the stop are still drained).
 */
#ifndef __MAC802154_DRIVER_OPS
#define __MAC802154_DRIVER_OPS

#include "ieee802154_i.h"

static inline void drv_stop(struct ieee802154_local *local)
{
	local->stop(local);

	/* sync away all work on the tasklet before clearing started */
	tasklet_disable(&local->tasklet);
	tasklet_enable(&local->tasklet);
}

#endif
