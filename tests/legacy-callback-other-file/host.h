/* SPDX-License-Identifier: GPL-2.0 */
#include <linux/interrupt.h>

struct host {
	struct tasklet_struct	completion_tasklet;
	int			done;
};

void host_completion_routine(unsigned long data);
