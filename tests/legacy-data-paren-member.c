// SPDX-License-Identifier: GPL-2.0
/* &(p->f) with data computed at init (mvsas shape); the body starts with a statement. */
#include <linux/interrupt.h>

struct sas_ha;

struct mvs_prv_info {
	struct tasklet_struct mv_tasklet;
	int n_host;
};

#define SHOST_TO_HA(s) ((struct sas_ha *)(s))

static void mvs_tasklet(unsigned long opaque)
{
	pr_debug("ha %lx\n", opaque);
}

static void mvs_post_sas_ha_init(struct mvs_prv_info *mpi, void *shost)
{
	tasklet_init(&(mpi->mv_tasklet), mvs_tasklet,
		     (unsigned long)SHOST_TO_HA(shost));
}

static void mvs_irq(struct mvs_prv_info *mpi)
{
	tasklet_schedule(&mpi->mv_tasklet);
}
