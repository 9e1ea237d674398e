// SPDX-License-Identifier: GPL-2.0
/*
 * A radio driver whose beacon tasklet is disabled across a reset and
 * enabled again, with no decision for the driver: the tracked enable. The
 * flag is set where the item is queued, cleared first in the callback, and
 * the enable queues only if a run was asked for while disabled.
 */
#include <linux/interrupt.h>

struct radio {
	struct work_struct bcon_tasklet;
	unsigned long bcon_tasklet_queued;
	unsigned int beacons;
};

static void radio_beacon(struct work_struct *work)
{
	struct radio *r = from_work(r, work, bcon_tasklet);

	clear_bit(0, &r->bcon_tasklet_queued);
	/* Clear before running; pairs with the barrier of the enable. */
	smp_mb__after_atomic();

	r->beacons++;
}

static void radio_irq(struct radio *r, int swba)
{
	if (swba) {
		set_bit(0, &r->bcon_tasklet_queued);
		queue_work(system_bh_wq, &r->bcon_tasklet);
	}
}

static void radio_reset(struct radio *r)
{
	disable_work_sync(&r->bcon_tasklet);
	r->beacons = 0;
	if (enable_work(&r->bcon_tasklet)) {
		/* Pairs with the barrier after clear_bit() in the callback. */
		smp_mb();
		if (test_bit(0, &r->bcon_tasklet_queued))
			queue_work(system_bh_wq, &r->bcon_tasklet);
	}
}

static void radio_init(struct radio *r)
{
	INIT_WORK(&r->bcon_tasklet, radio_beacon);
}

static void radio_remove(struct radio *r)
{
	flush_work(&r->bcon_tasklet);
}
