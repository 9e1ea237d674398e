/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRIV_H
#define PRIV_H
#include <linux/interrupt.h>

struct mydev {
	struct tasklet_struct	event_tasklet;
	int			events;
};

void mydev_event_tasklet(struct tasklet_struct *t);
#endif
