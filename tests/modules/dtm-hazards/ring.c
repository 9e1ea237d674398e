// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-CPU rings (alloc_percpu()) reset through a pointer the caller gives:
 * which CPU's ring it is cannot be told here.
 */
#include <linux/interrupt.h>
#include <linux/percpu.h>
#include "dtm.h"

static void dtm_ring_poll(struct tasklet_struct *t)
{
	struct dtm_ring *r = from_tasklet(r, t, poll_bh);

	r->head++;
}

void dtm_ring_kick(struct dtm_ring __percpu *rings)
{
	tasklet_schedule(&this_cpu_ptr(rings)->poll_bh);
}

void dtm_ring_reset(struct dtm_ring *r)
{
	tasklet_disable(&r->poll_bh);
	r->head = 0;
	tasklet_enable(&r->poll_bh);
}

struct dtm_ring __percpu *dtm_ring_alloc(void)
{
	struct dtm_ring __percpu *rings = alloc_percpu(struct dtm_ring);
	unsigned int cpu;

	if (!rings)
		return NULL;
	for_each_possible_cpu(cpu)
		tasklet_setup(&per_cpu_ptr(rings, cpu)->poll_bh, dtm_ring_poll);
	return rings;
}
