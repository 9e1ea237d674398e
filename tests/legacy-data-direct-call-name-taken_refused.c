// SPDX-License-Identifier: GPL-2.0
/*
 * As legacy-data-direct-call-wrapper, but the name of the work function
 * is taken: the file is refused, with that reason.
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

void caam_jr_dequeue_work(struct jr_priv *jrp)
{
	caam_jr_dequeue((unsigned long)&jrp->tasklet_params);
}
