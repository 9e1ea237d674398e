// SPDX-License-Identifier: GPL-2.0
/*
 * A tasklet_schedule() inside a #define, on an item that is also
 * hi-scheduled: the macro queues on the item's one workqueue too.
 */
#include <linux/interrupt.h>

struct port {
	struct work_struct bh;
	struct work_struct tx_bh;
};

#define PORT_KICK(p) queue_work(system_bh_highpri_wq, &(p)->bh)
#define PORT_KICK_TX(p) queue_work(system_bh_wq, &(p)->tx_bh)

static void port_irq(struct port *p)
{
	queue_work(system_bh_highpri_wq, &p->bh);
}

static void port_poll(struct port *p)
{
	PORT_KICK(p);
	PORT_KICK_TX(p);
}
