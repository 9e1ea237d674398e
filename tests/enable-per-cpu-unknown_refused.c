// SPDX-License-Identifier: GPL-2.0
/*
 * A per-CPU item (alloc_percpu()) enabled through a pointer the function
 * was given: which CPU's item it is cannot be told, so neither queue_work()
 * on the calling CPU nor queue_work_on() is known to be where the tasklet
 * ran. Refused, with the reason.
 */
#include <linux/interrupt.h>
#include <linux/percpu.h>

struct rx_ring {
	struct tasklet_struct poll;
	unsigned int head;
};

struct rx_dev {
	struct rx_ring __percpu *rings;
};

static void rx_poll(struct tasklet_struct *t)
{
	struct rx_ring *r = from_tasklet(r, t, poll);

	r->head++;
}

static void rx_isr(struct rx_dev *d)
{
	tasklet_schedule(&this_cpu_ptr(d->rings)->poll);
}

static void rx_ring_reset(struct rx_ring *r)
{
	tasklet_disable(&r->poll);
	r->head = 0;
	tasklet_enable(&r->poll);
}

static int rx_alloc(struct rx_dev *d)
{
	int cpu;

	d->rings = alloc_percpu(struct rx_ring);
	if (!d->rings)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		tasklet_setup(&per_cpu_ptr(d->rings, cpu)->poll, rx_poll);
	return 0;
}
