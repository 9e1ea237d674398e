// SPDX-License-Identifier: GPL-2.0
/*
 * A synchronous-framing line discipline, in the shape of ppp_synctty: the
 * discipline's own ops set .write to sfr_write(), which does nothing, and
 * its tasklet pushes frames out through port->ops->write(), the port
 * driver's write, a member of the same name in another struct (struct
 * sfr_port_ops, which the port drivers fill, not this file). The run does
 * not call sfr_write(): it calls code outside these files, and the
 * discipline's .receive and .wakeup, called by the port core, queue the
 * tasklet. The kill in .close is refused for a decision; it is not taken
 * for a run that only calls sfr_write().
 */
#include <linux/interrupt.h>
#include <linux/skbuff.h>
#include <linux/slab.h>

struct sfr_port;

struct sfr_port_ops {
	int (*write)(struct sfr_port *port, const u8 *buf, int count);
	void (*flush)(struct sfr_port *port);
};

struct sfr_port {
	const struct sfr_port_ops *ops;
	void *disc_data;
	unsigned long flags;
};

struct sfr_disc_ops {
	int (*open)(struct sfr_port *port);
	void (*close)(struct sfr_port *port);
	ssize_t (*write)(struct sfr_port *port, const u8 *buf, size_t count);
	void (*receive)(struct sfr_port *port, const u8 *buf, size_t count);
	void (*wakeup)(struct sfr_port *port);
};

struct sfr {
	struct sfr_port *port;
	struct sk_buff *tpkt;
	struct sk_buff_head rqueue;
	struct tasklet_struct tsk;
};

static int sfr_push(struct sfr *ap)
{
	struct sfr_port *port = ap->port;
	int sent;

	if (!ap->tpkt)
		return 0;
	sent = port->ops->write(port, ap->tpkt->data, ap->tpkt->len);
	if (sent < ap->tpkt->len)
		return 0;
	consume_skb(ap->tpkt);
	ap->tpkt = NULL;
	return 1;
}

static void sfr_process(struct tasklet_struct *t)
{
	struct sfr *ap = from_tasklet(ap, t, tsk);
	struct sk_buff *skb;

	while ((skb = skb_dequeue(&ap->rqueue)) != NULL)
		netif_rx(skb);
	sfr_push(ap);
}

static int sfr_open(struct sfr_port *port)
{
	struct sfr *ap = kzalloc(sizeof(*ap), GFP_KERNEL);

	if (!ap)
		return -ENOMEM;
	ap->port = port;
	skb_queue_head_init(&ap->rqueue);
	tasklet_setup(&ap->tsk, sfr_process);
	port->disc_data = ap;
	return 0;
}

static void sfr_close(struct sfr_port *port)
{
	struct sfr *ap = port->disc_data;

	if (!ap)
		return;
	port->disc_data = NULL;
	tasklet_kill(&ap->tsk);
	skb_queue_purge(&ap->rqueue);
	kfree_skb(ap->tpkt);
	kfree(ap);
}

static ssize_t sfr_write(struct sfr_port *port, const u8 *buf, size_t count)
{
	return -EAGAIN;
}

static void sfr_receive(struct sfr_port *port, const u8 *buf, size_t count)
{
	struct sfr *ap = port->disc_data;
	struct sk_buff *skb;

	if (!ap)
		return;
	skb = dev_alloc_skb(count);
	if (!skb)
		return;
	skb_put_data(skb, buf, count);
	skb_queue_tail(&ap->rqueue, skb);
	tasklet_schedule(&ap->tsk);
}

static void sfr_wakeup(struct sfr_port *port)
{
	struct sfr *ap = port->disc_data;

	if (ap)
		tasklet_schedule(&ap->tsk);
}

static struct sfr_disc_ops sfr_disc = {
	.open = sfr_open,
	.close = sfr_close,
	.write = sfr_write,
	.receive = sfr_receive,
	.wakeup = sfr_wakeup,
};
