// SPDX-License-Identifier: GPL-2.0
/* &(p->f) with data computed at init (mvsas shape); the body starts with a statement. */
#include <linux/interrupt.h>

struct sas_ha;

struct mvs_prv_info {
	struct work_struct mv_tasklet;
	unsigned long mv_tasklet_data;
	int n_host;
};

#define SHOST_TO_HA(s) ((struct sas_ha *)(s))

static void mvs_tasklet(struct work_struct *work)
{
	unsigned long opaque = container_of(work, struct mvs_prv_info, mv_tasklet)->mv_tasklet_data;

	pr_debug("ha %lx\n", opaque);
}

static void mvs_post_sas_ha_init(struct mvs_prv_info *mpi, void *shost)
{
	mpi->mv_tasklet_data = (unsigned long)SHOST_TO_HA(shost);
	INIT_WORK(&mpi->mv_tasklet, mvs_tasklet);
}

static void mvs_irq(struct mvs_prv_info *mpi)
{
	queue_work(system_bh_wq, &mpi->mv_tasklet);
}
