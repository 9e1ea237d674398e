// SPDX-License-Identifier: GPL-2.0
/*
 * A decision for the driver: the beacon callback must run only on a beacon
 * alert, and the next alert comes one interval later, so its enable after
 * a reset is enable_work() (the decision's reason goes to the message).
 */
#include <linux/interrupt.h>

struct bss {
	struct work_struct bcon_tasklet;
	int sent;
};

static void bss_beacon(struct work_struct *work)
{
	struct bss *b = from_work(b, work, bcon_tasklet);

	b->sent++;
}

static void bss_alert(struct bss *b)
{
	queue_work(system_bh_wq, &b->bcon_tasklet);
}

static void bss_reset(struct bss *b)
{
	disable_work_sync(&b->bcon_tasklet);
	b->sent = 0;
	enable_work(&b->bcon_tasklet);
}

static void bss_init(struct bss *b)
{
	INIT_WORK(&b->bcon_tasklet, bss_beacon);
}
