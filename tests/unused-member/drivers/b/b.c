// SPDX-License-Identifier: GPL-2.0
#include "b.h"

static void b_nq_run(struct tasklet_struct *t)
{
	struct b_nq *nq = from_tasklet(nq, t, nq_tasklet);

	nq->budget = 0;
}

void b_nq_start(struct b_nq *nq)
{
	tasklet_setup(&nq->nq_tasklet, b_nq_run);
	tasklet_schedule(&nq->nq_tasklet);
}
