// SPDX-License-Identifier: GPL-2.0
#include "mpc.h"

int ctcm_init_group(struct mpc_group *grp, struct net_device *dev)
{
	tasklet_init(&grp->mpc_tasklet2,
		     mpc_group_ready, (unsigned long)dev);
	return 0;
}

void ctcm_group_event(struct mpc_group *grp)
{
	tasklet_hi_schedule(&grp->mpc_tasklet2);
}
