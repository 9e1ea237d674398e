// SPDX-License-Identifier: GPL-2.0
/* tasklet_setup() inside a local #define, as rt2x00 does. */
#include <linux/interrupt.h>

struct lib_ops {
	void (*rxdone_tasklet)(struct work_struct *t);
	void (*tbtt_tasklet)(struct work_struct *t);
};

struct wdev {
	const struct lib_ops *lib;
	struct work_struct rxdone_tasklet;
	struct work_struct tbtt_tasklet;
};

static void wdev_init(struct wdev *wdev)
{
#define WDEV_TASKLET_INIT(name) \
	if (wdev->lib->name) { \
		INIT_WORK(&wdev->name, \
			      wdev->lib->name); \
	}

	WDEV_TASKLET_INIT(rxdone_tasklet);
	WDEV_TASKLET_INIT(tbtt_tasklet);

#undef WDEV_TASKLET_INIT
}

static void wdev_stop(struct wdev *wdev)
{
	flush_work(&wdev->rxdone_tasklet);
	flush_work(&wdev->tbtt_tasklet);
}
