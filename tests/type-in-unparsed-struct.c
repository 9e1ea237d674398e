// SPDX-License-Identifier: GPL-2.0
/*
 * A struct spatch cannot parse (members that are bare macros, as jme.h's
 * DECLARE_NAPI_STRUCT and DECLARE_NET_DEVICE_STATS): its tasklet field
 * still changes type, and the comment naming struct tasklet_struct stays;
 * a tasklet member no code names (rxclean_task) goes (convert/unused.py).
 */
#include <linux/interrupt.h>

#define DECLARE_NAPI_STRUCT struct napi_struct napi;
#define DECLARE_NET_DEVICE_STATS

struct nic_adapter {
	struct tasklet_struct	txclean_task;	/* a struct tasklet_struct */
	struct tasklet_struct	rxclean_task;
	int			(*rx)(void *skb);
	DECLARE_NAPI_STRUCT
	DECLARE_NET_DEVICE_STATS
};

static void nic_txclean(struct tasklet_struct *t)
{
	struct nic_adapter *nic = from_tasklet(nic, t, txclean_task);

	nic->rx(NULL);
}

static void nic_open(struct nic_adapter *nic)
{
	tasklet_setup(&nic->txclean_task, nic_txclean);
	tasklet_schedule(&nic->txclean_task);
}
