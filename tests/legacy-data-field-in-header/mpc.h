/* SPDX-License-Identifier: GPL-2.0 */
#include <linux/interrupt.h>

struct net_device;

struct mpc_group {
	struct tasklet_struct	mpc_tasklet2;
	int			outstanding_xid2;
};

void mpc_group_ready(unsigned long adev);
