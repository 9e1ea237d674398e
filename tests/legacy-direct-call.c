// SPDX-License-Identifier: GPL-2.0
/* The legacy callback is also called directly, with the container as data. */
#include <linux/interrupt.h>

struct port {
	struct tasklet_struct tlet;
	int rx;
};

static void port_bh(unsigned long arg)
{
	struct port *p = (void *)arg;

	p->rx = 0;
}

static void port_poll(struct port *p)
{
	port_bh((unsigned long)p);
}

static void port_init(struct port *p)
{
	tasklet_init(&p->tlet, port_bh, (unsigned long)p);
}
