// SPDX-License-Identifier: GPL-2.0
#include "priv.h"

void mydev_event_tasklet(struct tasklet_struct *t)
{
	struct mydev *d = from_tasklet(d, t, event_tasklet);

	d->events = 0;
}

void mydev_irq(struct mydev *d)
{
	d->events++;
	tasklet_schedule(&d->event_tasklet);
}
