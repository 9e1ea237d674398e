// SPDX-License-Identifier: GPL-2.0
/* tasklet_setup() inside a local #define, as rt2x00 does. */
#include <linux/interrupt.h>

struct lib_ops {
	void (*rxdone_tasklet)(struct tasklet_struct *t);
	void (*tbtt_tasklet)(struct tasklet_struct *t);
};

struct wdev {
	const struct lib_ops *lib;
	struct tasklet_struct rxdone_tasklet;
	struct tasklet_struct tbtt_tasklet;
};

static void wdev_init(struct wdev *wdev)
{
#define WDEV_TASKLET_INIT(name) \
	if (wdev->lib->name) { \
		tasklet_setup(&wdev->name, \
			      wdev->lib->name); \
	}

	WDEV_TASKLET_INIT(rxdone_tasklet);
	WDEV_TASKLET_INIT(tbtt_tasklet);

#undef WDEV_TASKLET_INIT
}

static void wdev_stop(struct wdev *wdev)
{
	tasklet_kill(&wdev->rxdone_tasklet);
	tasklet_kill(&wdev->tbtt_tasklet);
}
