// SPDX-License-Identifier: GPL-2.0
/*
 * ccree's shape: the tasklet member and its init exist only in the #else
 * of a build option, and the legacy callback, defined for both, is also
 * called directly. A work function calling it would have to sit in that
 * #else too: refused, with the line of the init.
 */
#include <linux/interrupt.h>
#include <linux/workqueue.h>

struct req_mgr {
#ifdef REQ_IN_WQ
	struct work_struct compwork;
#else
	struct tasklet_struct comptask;
#endif
	int done;
};

struct drvdata {
	struct req_mgr *mgr;
	int irqs;
};

static void comp_handler(unsigned long devarg);

#ifdef REQ_IN_WQ
static void comp_work_handler(struct work_struct *work)
{
	comp_handler(0);
}
#endif

int req_mgr_init(struct drvdata *drvdata)
{
	struct req_mgr *m = drvdata->mgr;

#ifdef REQ_IN_WQ
	INIT_WORK(&m->compwork, comp_work_handler);
#else
	tasklet_init(&m->comptask, comp_handler, (unsigned long)drvdata);
#endif
	return 0;
}

static void comp_handler(unsigned long devarg)
{
	struct drvdata *drvdata = (struct drvdata *)devarg;

	drvdata->irqs++;
}
