// SPDX-License-Identifier: GPL-2.0
/*
 * The callback is also called with other data (caam's suspend path): it
 * keeps its unsigned long parameter, and the work item runs a new
 * caam_jr_dequeue_work() that passes the value tasklet_init() stored.
 */
#include <linux/interrupt.h>

struct jr_params {
	int n;
};

struct jr_priv {
	struct work_struct irqtask;
	struct jr_params tasklet_params;
};

static void caam_jr_dequeue(unsigned long devarg)
{
	struct jr_params *params = (void *)devarg;

	params->n = 0;
}

static void caam_jr_dequeue_work(struct work_struct *work)
{
	unsigned long data =
		(unsigned long)&container_of(work, struct jr_priv, irqtask)->tasklet_params;

	caam_jr_dequeue(data);
}

static void caam_jr_init(struct jr_priv *jrp)
{
	INIT_WORK(&jrp->irqtask, caam_jr_dequeue_work);
}

static void caam_jr_suspend(struct jr_priv *jrp)
{
	struct jr_params suspend_params = { 0 };

	caam_jr_dequeue((unsigned long)&suspend_params);
}
