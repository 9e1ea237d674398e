// SPDX-License-Identifier: GPL-2.0
/*
 * A decision for the driver: the beacon callback must run only on a beacon
 * alert, and the next alert comes one interval later, so its enable after
 * a reset is enable_work() (the decision's reason goes to the message).
 */
#include <linux/interrupt.h>

struct bss {
	struct tasklet_struct bcon_tasklet;
	int sent;
};

static void bss_beacon(struct tasklet_struct *t)
{
	struct bss *b = from_tasklet(b, t, bcon_tasklet);

	b->sent++;
}

static void bss_alert(struct bss *b)
{
	tasklet_schedule(&b->bcon_tasklet);
}

static void bss_reset(struct bss *b)
{
	tasklet_disable(&b->bcon_tasklet);
	b->sent = 0;
	tasklet_enable(&b->bcon_tasklet);
}

static void bss_init(struct bss *b)
{
	tasklet_setup(&b->bcon_tasklet, bss_beacon);
}
