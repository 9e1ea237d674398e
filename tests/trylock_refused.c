// SPDX-License-Identifier: GPL-2.0
/* tasklet_trylock() used as a lock has no workqueue equivalent. */
#include <linux/interrupt.h>

struct engine {
	struct tasklet_struct sched;
};

static void engine_park(struct engine *e)
{
	if (tasklet_trylock(&e->sched)) {
		pr_debug("parked\n");
		tasklet_unlock(&e->sched);
	}
}
