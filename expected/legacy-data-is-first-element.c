// SPDX-License-Identifier: GPL-2.0
/*
 * Two inits of one legacy callback: each passes the array element that
 * holds the tasklet, one as &banks[i], one as the pointer banks for
 * element 0 (qat's PF and VF inits of adf_response_handler): both are
 * the container, so no data field is added.
 */
#include <linux/interrupt.h>

struct bank {
	struct work_struct resp_handler;
	int ring;
};

struct priv {
	struct bank *banks;
	int num;
};

static void bank_handler(struct work_struct *work)
{
	struct bank *b = from_work(b, work, resp_handler);

	b->ring++;
}

static void pf_setup(struct priv *p)
{
	int i;

	for (i = 0; i < p->num; i++)
		INIT_WORK(&p->banks[i].resp_handler, bank_handler);
}

static void vf_setup(struct priv *p)
{
	INIT_WORK(&p->banks[0].resp_handler, bank_handler);
}
