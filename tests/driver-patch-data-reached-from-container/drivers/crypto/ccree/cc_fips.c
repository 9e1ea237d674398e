// SPDX-License-Identifier: GPL-2.0
#include <linux/interrupt.h>

struct cc_drvdata {
	int irq;
	void *fips_handle;
};

static void fips_dsr(unsigned long devarg);

struct cc_fips_handle {
	struct tasklet_struct tasklet;
	struct cc_drvdata *drvdata;
};

static void fips_dsr(unsigned long devarg)
{
	struct cc_drvdata *drvdata = (struct cc_drvdata *)devarg;

	drvdata->irq = 0;
}

int cc_fips_init(struct cc_drvdata *p_drvdata)
{
	struct cc_fips_handle *fips_h;

	fips_h = kzalloc(sizeof(*fips_h), GFP_KERNEL);
	if (!fips_h)
		return -ENOMEM;
	p_drvdata->fips_handle = fips_h;
	tasklet_init(&fips_h->tasklet, fips_dsr, (unsigned long)p_drvdata);
	fips_h->drvdata = p_drvdata;
	tasklet_schedule(&fips_h->tasklet);
	return 0;
}
