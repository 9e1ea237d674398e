// SPDX-License-Identifier: GPL-2.0
/*
 * tasklet_disable() in a NAPI poll function, which net_rx_action() runs
 * in softirq: disable_work_sync() may sleep there unless the item was
 * last queued on a BH workqueue, which the tool cannot know.
 */
#include <linux/interrupt.h>
#include <linux/netdevice.h>

struct ring {
	struct napi_struct napi;
	struct tasklet_struct refill_tasklet;
	int budget_left;
};

static void ring_refill(struct tasklet_struct *t)
{
	struct ring *r = from_tasklet(r, t, refill_tasklet);

	r->budget_left = 64;
}

static int ring_poll(struct napi_struct *napi, int budget)
{
	struct ring *r = container_of(napi, struct ring, napi);

	tasklet_disable(&r->refill_tasklet);
	r->budget_left -= budget;
	tasklet_enable(&r->refill_tasklet);
	return 0;
}

static void ring_open(struct net_device *dev, struct ring *r)
{
	tasklet_setup(&r->refill_tasklet, ring_refill);
	netif_napi_add(dev, &r->napi, ring_poll);
}
