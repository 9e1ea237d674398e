// SPDX-License-Identifier: GPL-2.0
/*
 * Two inits of one legacy callback: each passes the array element that
 * holds the tasklet, one as &banks[i], one as the pointer banks for
 * element 0 (qat's PF and VF inits of adf_response_handler): both are
 * the container, so no data field is added.
 */
#include <linux/interrupt.h>

struct bank {
	struct tasklet_struct resp_handler;
	int ring;
};

struct priv {
	struct bank *banks;
	int num;
};

static void bank_handler(unsigned long data)
{
	struct bank *b = (struct bank *)data;

	b->ring++;
}

static void pf_setup(struct priv *p)
{
	int i;

	for (i = 0; i < p->num; i++)
		tasklet_init(&p->banks[i].resp_handler, bank_handler,
			     (unsigned long)&p->banks[i]);
}

static void vf_setup(struct priv *p)
{
	tasklet_init(&p->banks[0].resp_handler, bank_handler,
		     (unsigned long)p->banks);
}
