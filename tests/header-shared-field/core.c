// SPDX-License-Identifier: GPL-2.0
#include "priv.h"

int mydev_probe(struct mydev *d)
{
	tasklet_setup(&d->event_tasklet, mydev_event_tasklet);
	return 0;
}

void mydev_remove(struct mydev *d)
{
	tasklet_kill(&d->event_tasklet);
}
