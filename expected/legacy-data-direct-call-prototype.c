// SPDX-License-Identifier: GPL-2.0
/*
 * ccree's shape: the legacy callback is declared first, defined at the end
 * of the file, and called directly with the same kind of data from a
 * workqueue path. The work function goes before the function of the init,
 * after its comment block, where the prototype already declares the
 * callback.
 */
#include <linux/interrupt.h>
#include <linux/workqueue.h>

struct req_mgr {
	struct work_struct comptask;
	unsigned long comptask_data;
	struct work_struct compwork;
	int done;
};

struct drvdata {
	struct req_mgr *mgr;
	int irqs;
};

static void comp_handler(unsigned long devarg);

static void comp_work_handler(struct work_struct *work)
{
	struct req_mgr *m = container_of(work, struct req_mgr, compwork);

	comp_handler((unsigned long)m);
}

static void comp_handler_work(struct work_struct *work)
{
	comp_handler(container_of(work, struct req_mgr, comptask)->comptask_data);
}

/*
 * req_mgr_init() - set up the completion paths;
 * the tasklet gets the driver data.
 */
int req_mgr_init(struct drvdata *drvdata)
{
	struct req_mgr *m = drvdata->mgr;

	m->comptask_data = (unsigned long)drvdata;
	INIT_WORK(&m->comptask, comp_handler_work);
	INIT_WORK(&m->compwork, comp_work_handler);
	return 0;
}

void req_mgr_fini(struct drvdata *drvdata)
{
	flush_work(&drvdata->mgr->comptask);
}

static void comp_handler(unsigned long devarg)
{
	struct drvdata *drvdata = (struct drvdata *)devarg;

	drvdata->irqs++;
}
