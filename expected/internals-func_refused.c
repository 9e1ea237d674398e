// SPDX-License-Identifier: GPL-2.0
/* The callback and data fields are written directly: no work equivalent. */
#include <linux/interrupt.h>

extern struct tasklet_struct lcs_tasklet;

static void lcs_bh(unsigned long data)
{
}

static void lcs_setup(void *card)
{
	lcs_tasklet.func = lcs_bh;
	lcs_tasklet.data = (unsigned long)card;
	tasklet_schedule(&lcs_tasklet);
}
