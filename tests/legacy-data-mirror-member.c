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
	struct tasklet_struct notify;
};

struct card_req {
	struct card_host *host;
};

static void slot_req_tasklet(unsigned long data)
{
	struct card_host *host = (struct card_host *)data;

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

	tasklet_init(&s->notify, slot_req_tasklet, (unsigned long)host);
	return s;
}

static void slot_irq(struct slot *s)
{
	tasklet_schedule(&s->notify);
}

static void slot_free(struct slot *s)
{
	tasklet_kill(&s->notify);
}
