// SPDX-License-Identifier: GPL-2.0-only
/* dtm_hazards: module init and exit around the three parts. */
#include <linux/module.h>
#include "dtm.h"

static struct dtm_ring __percpu *rings;

static int __init dtm_init(void)
{
	rings = dtm_ring_alloc();
	if (!rings)
		return -ENOMEM;
	dtm_port_setup();
	dtm_port_reconfigure(1);
	dtm_port_kick();
	dtm_ring_kick(rings);
	dtm_ring_reset(this_cpu_ptr(rings));
	(void)dtm_card_probe;
	return 0;
}

static void __exit dtm_exit(void)
{
	dtm_port_teardown();
	free_percpu(rings);
}

module_init(dtm_init);
module_exit(dtm_exit);
MODULE_DESCRIPTION("detasklet test module: shapes that must be refused with the reason");
MODULE_LICENSE("GPL");
