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
	struct work_struct	txclean_task;	/* a struct tasklet_struct */
	int			(*rx)(void *skb);
	DECLARE_NAPI_STRUCT
	DECLARE_NET_DEVICE_STATS
};

static void nic_txclean(struct work_struct *work)
{
	struct nic_adapter *nic = from_work(nic, work, txclean_task);

	nic->rx(NULL);
}

static void nic_open(struct nic_adapter *nic)
{
	INIT_WORK(&nic->txclean_task, nic_txclean);
	queue_work(system_bh_wq, &nic->txclean_task);
}
