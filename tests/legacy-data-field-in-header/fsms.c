// SPDX-License-Identifier: GPL-2.0
#include "mpc.h"

void mpc_group_ready(unsigned long adev)
{
	struct net_device *dev = (struct net_device *)adev;

	pr_debug("%p ready\n", dev);
}
