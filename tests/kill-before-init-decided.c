// SPDX-License-Identifier: GPL-2.0
/*
 * The error path's disable is reached, in this function, before the
 * init; the driver's decision says why it only runs after an earlier one.
 */
#include <linux/interrupt.h>

struct nq {
	struct tasklet_struct nq_tasklet;
	bool requested;
	int vec;
};

static void nq_service(struct tasklet_struct *t)
{
	struct nq *nq = from_tasklet(nq, t, nq_tasklet);

	nq->requested = true;
}

int nq_start_irq(struct nq *nq, int vec, bool need_init)
{
	int rc;

	if (need_init)
		tasklet_setup(&nq->nq_tasklet, nq_service);
	else
		tasklet_enable(&nq->nq_tasklet);

	rc = request_irq(vec, NULL, 0, "nq", nq);
	if (rc) {
		tasklet_disable(&nq->nq_tasklet);
		return rc;
	}
	nq->vec = vec;
	return 0;
}
