// SPDX-License-Identifier: GPL-2.0
/* data is a constant the callback reads: not provably the same without it. */
#include <linux/interrupt.h>

static struct tasklet_struct port_tasklet;

static void port_action(unsigned long port)
{
	pr_debug("port %lu\n", port);
}

static int port_init(void)
{
	tasklet_init(&port_tasklet, port_action, 2);
	return 0;
}
