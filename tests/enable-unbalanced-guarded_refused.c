// SPDX-License-Identifier: GPL-2.0
/*
 * An enable that a path reaches without the disable: when the port was not
 * running, tasklet_disable() is skipped but tasklet_enable() still runs,
 * leaving the tasklet's count at -1; enable_work() there WARNs "work
 * disable count underflowed". Refused, with the path.
 */
#include <linux/interrupt.h>

struct port {
	struct tasklet_struct tx_bh;
	bool running;
	int txq;
};

static void port_tx(struct tasklet_struct *t)
{
	struct port *p = from_tasklet(p, t, tx_bh);

	p->txq = 0;
}

static void port_irq(struct port *p)
{
	tasklet_schedule(&p->tx_bh);
}

static void port_reconfigure(struct port *p)
{
	if (p->running)
		tasklet_disable(&p->tx_bh);
	p->txq = 0;
	tasklet_enable(&p->tx_bh);
}

static void port_setup(struct port *p)
{
	tasklet_setup(&p->tx_bh, port_tx);
}
