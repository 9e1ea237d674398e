// SPDX-License-Identifier: GPL-2.0
/*
 * A person decided that no replacement is right without a change to the
 * driver first (an open path that can fail before the item is set up, and
 * its cleanup kills it): the file stays as it is, with the decision's
 * reason.
 */
#include <linux/interrupt.h>

struct eth {
	struct tasklet_struct rx_dma;
	void *buf;
};

static void eth_rx_dma(struct tasklet_struct *t)
{
}

static void eth_free_bufs(struct eth *e)
{
	tasklet_kill(&e->rx_dma);
	e->buf = NULL;
}

static int eth_alloc_bufs(struct eth *e)
{
	if (!e->buf) {
		eth_free_bufs(e);
		return -12;
	}
	tasklet_setup(&e->rx_dma, eth_rx_dma);
	return 0;
}
