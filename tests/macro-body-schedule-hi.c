// SPDX-License-Identifier: GPL-2.0
/*
 * A tasklet_schedule() inside a #define, on an item that is also
 * hi-scheduled: the macro queues on the item's one workqueue too.
 */
#include <linux/interrupt.h>

struct port {
	struct tasklet_struct bh;
	struct tasklet_struct tx_bh;
};

#define PORT_KICK(p) tasklet_schedule(&(p)->bh)
#define PORT_KICK_TX(p) tasklet_schedule(&(p)->tx_bh)

static void port_irq(struct port *p)
{
	tasklet_hi_schedule(&p->bh);
}

static void port_poll(struct port *p)
{
	PORT_KICK(p);
	PORT_KICK_TX(p);
}
