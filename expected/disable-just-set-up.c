// SPDX-License-Identifier: GPL-2.0-only
/*
 * Two tasklets set up and disabled at once when the queue is allocated,
 * before the queue is published: the disables drop no pending run.
 */
#include <linux/interrupt.h>
#include <linux/slab.h>

struct foo_qdio {
	struct work_struct irq_tasklet;
	struct work_struct request_tasklet;
	int pending;
};

struct foo_adapter {
	struct foo_qdio *qdio;
};

static void foo_irq_tasklet(struct work_struct *work)
{
	struct foo_qdio *qdio = from_work(qdio, work, irq_tasklet);

	qdio->pending = 0;
}

static void foo_request_tasklet(struct work_struct *work)
{
	struct foo_qdio *qdio = from_work(qdio, work, request_tasklet);

	qdio->pending++;
}

int foo_qdio_setup(struct foo_adapter *adapter)
{
	struct foo_qdio *qdio;

	qdio = kzalloc(sizeof(*qdio), GFP_KERNEL);
	if (!qdio)
		return -ENOMEM;

	INIT_WORK(&qdio->irq_tasklet, foo_irq_tasklet);
	INIT_WORK(&qdio->request_tasklet, foo_request_tasklet);
	disable_work_sync(&qdio->irq_tasklet);
	disable_work_sync(&qdio->request_tasklet);

	adapter->qdio = qdio;
	return 0;
}
