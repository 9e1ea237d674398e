// SPDX-License-Identifier: GPL-2.0-only
/*
 * A reconfigure that disables the TX tasklet only when the port runs, and
 * enables it always: on the path where the port was stopped, the enable has
 * no disable to undo.
 */
#include <linux/interrupt.h>
#include "dtm.h"

static struct dtm_port port;

static void dtm_port_tx(struct tasklet_struct *t)
{
	struct dtm_port *p = from_tasklet(p, t, tx_bh);

	p->txq = 0;
}

void dtm_port_kick(void)
{
	tasklet_schedule(&port.tx_bh);
}

void dtm_port_reconfigure(unsigned int txq)
{
	if (port.running)
		tasklet_disable(&port.tx_bh);
	port.txq = txq;
	tasklet_enable(&port.tx_bh);
}

void dtm_port_setup(void)
{
	tasklet_setup(&port.tx_bh, dtm_port_tx);
	port.running = true;
}

void dtm_port_teardown(void)
{
	tasklet_kill(&port.tx_bh);
}
