// SPDX-License-Identifier: GPL-2.0
/*
 * An Ethernet driver's tx cleanup tasklet, queued by its watchdog interrupt
 * and by its xmit, killed in the shutdown of the tx path after free_irq()
 * but while the netdevs are still registered: the callback never queues
 * itself, but the xmit may queue the item between flush_work() and
 * cancel_work_sync(), and that run is dropped where tasklet_kill() may
 * have let it run (staging octeon's cvm_oct_xmit()). Whether the driver
 * can lose it is a decision for the driver: without one the file is
 * refused, naming the queuer.
 */
#include <linux/interrupt.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>

#define FOO_TX_IRQ 42

static struct sk_buff_head foo_tx_free_list;

static void foo_tx_do_cleanup(unsigned long arg)
{
	struct sk_buff *skb;

	while ((skb = skb_dequeue(&foo_tx_free_list)))
		dev_kfree_skb(skb);
}

static DECLARE_TASKLET_OLD(foo_tx_cleanup_tasklet, foo_tx_do_cleanup);

static irqreturn_t foo_tx_cleanup_watchdog(int irq, void *dev_id)
{
	tasklet_schedule(&foo_tx_cleanup_tasklet);
	return IRQ_HANDLED;
}

netdev_tx_t foo_xmit(struct sk_buff *skb, struct net_device *dev)
{
	skb_queue_tail(&foo_tx_free_list, skb);
	if (skb_queue_len(&foo_tx_free_list) > 32)
		tasklet_schedule(&foo_tx_cleanup_tasklet);
	return NETDEV_TX_OK;
}

int foo_tx_initialize(void)
{
	skb_queue_head_init(&foo_tx_free_list);
	return request_irq(FOO_TX_IRQ, foo_tx_cleanup_watchdog, 0, "foo tx", NULL);
}

void foo_tx_shutdown(void)
{
	free_irq(FOO_TX_IRQ, NULL);
	tasklet_kill(&foo_tx_cleanup_tasklet);
}
