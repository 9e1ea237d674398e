// SPDX-License-Identifier: GPL-2.0-only
/*
 * Two tasklets set up and disabled at once when the queue is allocated,
 * before the queue is published: the disables drop no pending run.
 */
#include <linux/interrupt.h>
#include <linux/slab.h>

struct foo_qdio {
	struct tasklet_struct irq_tasklet;
	struct tasklet_struct request_tasklet;
	int pending;
};

struct foo_adapter {
	struct foo_qdio *qdio;
};

static void foo_irq_tasklet(struct tasklet_struct *t)
{
	struct foo_qdio *qdio = from_tasklet(qdio, t, irq_tasklet);

	qdio->pending = 0;
}

static void foo_request_tasklet(struct tasklet_struct *t)
{
	struct foo_qdio *qdio = from_tasklet(qdio, t, request_tasklet);

	qdio->pending++;
}

int foo_qdio_setup(struct foo_adapter *adapter)
{
	struct foo_qdio *qdio;

	qdio = kzalloc(sizeof(*qdio), GFP_KERNEL);
	if (!qdio)
		return -ENOMEM;

	tasklet_setup(&qdio->irq_tasklet, foo_irq_tasklet);
	tasklet_setup(&qdio->request_tasklet, foo_request_tasklet);
	tasklet_disable(&qdio->irq_tasklet);
	tasklet_disable(&qdio->request_tasklet);

	adapter->qdio = qdio;
	return 0;
}
