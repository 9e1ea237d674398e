// SPDX-License-Identifier: GPL-2.0
/*
 * The callback's tasklet is called t, and another function has a timer
 * called t whose ->next it reads (brcmsmac's shape): that is not a
 * tasklet internal, the file converts. wl_free() is reached only from the
 * .remove callback (brcms_remove() calls brcms_free()), so it is teardown.
 */
#include <linux/interrupt.h>

struct wl_timer {
	struct wl_timer *next;
};

struct wl_info {
	struct work_struct tasklet;
	struct wl_timer *timers;
	int resched;
};

static void wl_dpc(struct work_struct *work)
{
	struct wl_info *wl = from_work(wl, work, tasklet);

	if (wl->resched)
		queue_work(system_bh_wq, &wl->tasklet);
}

static void wl_free(struct wl_info *wl)
{
	struct wl_timer *t, *next;

	cancel_work_sync(&wl->tasklet);
	for (t = wl->timers; t; t = next)
		next = t->next;
}

static void wl_attach(struct wl_info *wl)
{
	INIT_WORK(&wl->tasklet, wl_dpc);
}

static void wl_remove(struct bcma_device *core)
{
	wl_free(bcma_get_drvdata(core));
}

static struct bcma_driver wl_driver = {
	.remove = wl_remove,
};
