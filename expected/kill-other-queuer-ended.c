// SPDX-License-Identifier: GPL-2.0
/*
 * A tx cleanup tasklet queued only by the watchdog interrupt, killed in the
 * shutdown of the tx path (a function other files call: not proven a
 * teardown) after free_irq(): the callback never queues itself and the
 * only other function that queues the item has its interrupt freed before
 * the kill, so nothing can be queued between flush_work() and
 * cancel_work_sync(): flush then cancel is tasklet_kill().
 */
#include <linux/interrupt.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>

#define FOO_TX_IRQ 42

static struct sk_buff_head foo_tx_free_list;

static void foo_tx_do_cleanup(struct work_struct *work)
{
	struct sk_buff *skb;

	while ((skb = skb_dequeue(&foo_tx_free_list)))
		dev_kfree_skb(skb);
}

static DECLARE_WORK(foo_tx_cleanup_tasklet, foo_tx_do_cleanup);

static irqreturn_t foo_tx_cleanup_watchdog(int irq, void *dev_id)
{
	queue_work(system_bh_wq, &foo_tx_cleanup_tasklet);
	return IRQ_HANDLED;
}

netdev_tx_t foo_xmit(struct sk_buff *skb, struct net_device *dev)
{
	skb_queue_tail(&foo_tx_free_list, skb);
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
	flush_work(&foo_tx_cleanup_tasklet);
}
