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
	struct tasklet_struct irqtask;
	struct jr_params tasklet_params;
};

static void caam_jr_dequeue(unsigned long devarg)
{
	struct jr_params *params = (void *)devarg;

	params->n = 0;
}

static void caam_jr_init(struct jr_priv *jrp)
{
	tasklet_init(&jrp->irqtask, caam_jr_dequeue,
		     (unsigned long)&jrp->tasklet_params);
}

static void caam_jr_suspend(struct jr_priv *jrp)
{
	struct jr_params suspend_params = { 0 };

	caam_jr_dequeue((unsigned long)&suspend_params);
}
