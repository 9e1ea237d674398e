// SPDX-License-Identifier: GPL-2.0
/*
 * A legacy tasklet whose callback comes from an ops table chosen per
 * controller family (megaraid_sas's instance->instancet->tasklet). The
 * functions it can point to are set in initialisers the tool does not
 * follow, some in files that name no tasklet API: refused, with the
 * callback expression in the reason.
 */
#include <linux/interrupt.h>

struct adapter;

struct adapter_ops {
	void (*tasklet)(unsigned long data);
	int (*reset)(struct adapter *a);
};

struct adapter {
	const struct adapter_ops *ops;
	struct tasklet_struct isr_tasklet;
	int done;
};

static void adapter_complete_dpc(unsigned long data)
{
	struct adapter *a = (struct adapter *)data;

	a->done++;
}

static const struct adapter_ops adapter_gen1_ops = {
	.tasklet = adapter_complete_dpc,
};

static int adapter_probe(struct adapter *a)
{
	a->ops = &adapter_gen1_ops;
	tasklet_init(&a->isr_tasklet, a->ops->tasklet, (unsigned long)a);
	return 0;
}

static void adapter_remove(struct adapter *a)
{
	tasklet_kill(&a->isr_tasklet);
}
