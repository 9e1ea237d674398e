// SPDX-License-Identifier: GPL-2.0
/*
 * tasklet_kill() under read_lock_bh() of an rwlock: bottom halves off and
 * the lock spinning; cancel_work_sync() would sleep.
 */
#include <linux/interrupt.h>
#include <linux/spinlock.h>

struct link {
	struct tasklet_struct tx_tasklet;
	rwlock_t state_lock;
	int up;
};

static void link_tx(struct tasklet_struct *t)
{
}

static void link_init(struct link *l)
{
	tasklet_setup(&l->tx_tasklet, link_tx);
}

static void link_down(struct link *l)
{
	read_lock_bh(&l->state_lock);
	if (l->up)
		tasklet_kill(&l->tx_tasklet);
	read_unlock_bh(&l->state_lock);
}
