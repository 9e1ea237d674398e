// SPDX-License-Identifier: GPL-2.0
#include "host.h"

int host_init(struct host *h)
{
	tasklet_init(&h->completion_tasklet,
		     host_completion_routine, (unsigned long)h);
	return 0;
}
