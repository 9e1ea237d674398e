// SPDX-License-Identifier: GPL-2.0
/*
 * A radio driver whose beacon tasklet is disabled across a reset and
 * enabled again, with no decision for the driver: the tracked enable. The
 * flag is set where the item is queued, cleared first in the callback, and
 * the enable queues only if a run was asked for while disabled.
 */
#include <linux/interrupt.h>

struct radio {
	struct tasklet_struct bcon_tasklet;
	unsigned int beacons;
};

static void radio_beacon(struct tasklet_struct *t)
{
	struct radio *r = from_tasklet(r, t, bcon_tasklet);

	r->beacons++;
}

static void radio_irq(struct radio *r, int swba)
{
	if (swba)
		tasklet_schedule(&r->bcon_tasklet);
}

static void radio_reset(struct radio *r)
{
	tasklet_disable(&r->bcon_tasklet);
	r->beacons = 0;
	tasklet_enable(&r->bcon_tasklet);
}

static void radio_init(struct radio *r)
{
	tasklet_setup(&r->bcon_tasklet, radio_beacon);
}

static void radio_remove(struct radio *r)
{
	tasklet_kill(&r->bcon_tasklet);
}
