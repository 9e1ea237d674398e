// SPDX-License-Identifier: GPL-2.0
/*
 * The data is a pointer the probe has just stored in a member of the
 * struct that holds the tasklet (a memory stick slot's host), and nothing
 * else writes that member: the callback reads it back from the container,
 * with no new field. Another struct's member of the same name, written
 * elsewhere, does not count.
 */
#include <linux/interrupt.h>

struct card_host;

struct slot {
	struct card_host *host;
	void __iomem *addr;
	struct work_struct notify;
};

struct card_req {
	struct card_host *host;
};

static void slot_req_tasklet(struct work_struct *work)
{
	struct card_host *host = container_of(work, struct slot, notify)->host;

	pr_debug("request on %p\n", host);
}

static void slot_bind(struct card_req *req, struct card_host *host)
{
	req->host = host;
}

static struct slot *slot_alloc(struct card_host *host, void __iomem *base)
{
	struct slot *s = card_host_priv(host);

	s->host = host;
	s->addr = base;
	if (!s->addr)
		return NULL;

	INIT_WORK(&s->notify, slot_req_tasklet);
	return s;
}

static void slot_irq(struct slot *s)
{
	queue_work(system_bh_wq, &s->notify);
}

static void slot_free(struct slot *s)
{
	flush_work(&s->notify);
}
