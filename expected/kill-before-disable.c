// SPDX-License-Identifier: GPL-2.0
/*
 * A stop that kills the item on teardown only and disables it every time
 * (bnxt_re's nq/creq stop_irq shape): the kill runs straight into a disable
 * that waits, so the kill keeps its flush alone (disable_work_sync() cancels
 * a run queued since and waits for a running one; a cancel_work_sync()
 * between them would do nothing). Before a disable that does not wait
 * (tasklet_disable_nosync()), or one that a statement separates from the
 * kill, the kill is a kill like any other (flush, then cancel).
 */
#include <linux/interrupt.h>

struct nq {
	struct work_struct nq_tasklet;
	int irq;
	bool requested;
};

static void nq_service(struct work_struct *work)
{
	struct nq *nq = from_work(nq, work, nq_tasklet);

	nq->requested = true;
}

static irqreturn_t nq_irq(int irq, void *data)
{
	struct nq *nq = data;

	queue_work(system_bh_wq, &nq->nq_tasklet);
	return IRQ_HANDLED;
}

int nq_start(struct nq *nq)
{
	INIT_WORK(&nq->nq_tasklet, nq_service);
	return request_irq(nq->irq, nq_irq, 0, "nq", nq);
}

void nq_stop(struct nq *nq, bool kill)
{
	free_irq(nq->irq, nq);
	if (kill)
		flush_work(&nq->nq_tasklet);
	disable_work_sync(&nq->nq_tasklet);
}

void nq_stop_nosync(struct nq *nq, bool kill)
{
	free_irq(nq->irq, nq);
	if (kill) {
		flush_work(&nq->nq_tasklet);
	}
	disable_work(&nq->nq_tasklet);
}

void nq_stop_apart(struct nq *nq)
{
	free_irq(nq->irq, nq);
	flush_work(&nq->nq_tasklet);
	nq->requested = false;
	disable_work_sync(&nq->nq_tasklet);
}
