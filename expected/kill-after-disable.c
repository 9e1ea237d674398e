// SPDX-License-Identifier: GPL-2.0
/*
 * Teardown that disables the item, then kills it (nitrox's
 * unregister_interrupts shape): the disable already dropped a pending run,
 * waited for a running one and keeps new ones out, so the kill goes (a
 * cancel_work_sync() there would do nothing; in a loop, QAT's shape, too).
 * After tasklet_disable_nosync(), which does not wait, the kill becomes
 * cancel_work_sync() alone, which waits for a running callback.
 * A kill whose disable runs only under a condition, or is undone by an
 * enable before it, is a kill like any other (flush, then cancel).
 */
#include <linux/interrupt.h>
#include <linux/slab.h>

struct qvec {
	struct work_struct resp_tasklet;
	int irq;
	bool valid;
};

static void qvec_resp(struct work_struct *work)
{
	struct qvec *q = from_work(q, work, resp_tasklet);

	q->valid = true;
}

static irqreturn_t qvec_isr(int irq, void *data)
{
	struct qvec *q = data;

	queue_work(system_bh_highpri_wq, &q->resp_tasklet);
	return IRQ_HANDLED;
}

int qvec_register(struct qvec *q)
{
	INIT_WORK(&q->resp_tasklet, qvec_resp);
	return request_irq(q->irq, qvec_isr, 0, "qvec", q);
}

void qvec_unregister(struct qvec *q)
{
	free_irq(q->irq, q);
	disable_work_sync(&q->resp_tasklet);
	q->valid = false;
}

void qvec_unregister_maybe(struct qvec *q, bool quiet)
{
	free_irq(q->irq, q);
	if (quiet)
		disable_work_sync(&q->resp_tasklet);
	flush_work(&q->resp_tasklet);
}

void qvec_unregister_all(struct qvec *qs, int n)
{
	int i;

	for (i = 0; i < n; i++)
		disable_work_sync(&qs[i].resp_tasklet);
}

void qvec_unregister_nosync(struct qvec *q)
{
	free_irq(q->irq, q);
	disable_work(&q->resp_tasklet);
	cancel_work_sync(&q->resp_tasklet);
}
