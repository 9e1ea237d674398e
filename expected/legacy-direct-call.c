// SPDX-License-Identifier: GPL-2.0
/* The legacy callback is also called directly, with the container as data. */
#include <linux/interrupt.h>

struct port {
	struct work_struct tlet;
	int rx;
};

static void port_bh(struct work_struct *work)
{
	struct port *p = from_work(p, work, tlet);

	p->rx = 0;
}

static void port_poll(struct port *p)
{
	port_bh(&p->tlet);
}

static void port_init(struct port *p)
{
	INIT_WORK(&p->tlet, port_bh);
}
