// SPDX-License-Identifier: GPL-2.0
/* The tasklet expression has a side effect: the data field would name it twice. */
#include <linux/interrupt.h>

struct port {
	struct tasklet_struct bh;
	int id;
};

static void port_bh(unsigned long data)
{
	pr_debug("port %lu\n", data);
}

static void ports_init(struct port *ports, int n, unsigned long base)
{
	int i = 0;

	while (i < n)
		tasklet_init(&ports[i++].bh, port_bh, base);
}
