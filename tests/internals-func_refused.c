// SPDX-License-Identifier: GPL-2.0
/* The callback is swapped at run time: a work_struct's is fixed by INIT_WORK(). */
#include <linux/interrupt.h>

struct port {
	struct tasklet_struct	bh;
	int			slow;
};

static void port_fast_bh(unsigned long data)
{
}

static void port_slow_bh(unsigned long data)
{
}

static void port_init(struct port *p)
{
	tasklet_init(&p->bh, port_fast_bh, (unsigned long)p);
}

static void port_set_slow(struct port *p)
{
	p->slow = 1;
	p->bh.func = port_slow_bh;
	tasklet_schedule(&p->bh);
}
