// SPDX-License-Identifier: GPL-2.0
/*
 * A serial-like port driver whose receive tasklet hands each buffer to the
 * line discipline the client attached (port->rx_handler(), a pointer only
 * the client sets: what it runs is not read). Only the interrupt handler
 * queues the tasklet, through a static helper, and the handler goes to
 * request_irq() alone: no code outside the driver can queue it, so the
 * client's handler cannot queue it again, and the kill in .remove, after
 * free_irq(), is flush then cancel, exact.
 */
#include <linux/interrupt.h>
#include <linux/platform_device.h>

struct rxp_port;

struct rxp_port {
	struct work_struct rx_task;
	void (*rx_handler)(struct rxp_port *port, void *buf, unsigned int len);
	void *buf;
	unsigned int len;
	int irq;
};

static void rxp_rx_task(struct work_struct *work)
{
	struct rxp_port *port = from_work(port, work, rx_task);

	port->rx_handler(port, port->buf, port->len);
}

static void rxp_kick_rx(struct rxp_port *port)
{
	queue_work(system_bh_wq, &port->rx_task);
}

static irqreturn_t rxp_irq(int irq, void *dev_id)
{
	struct rxp_port *port = dev_id;

	rxp_kick_rx(port);
	return IRQ_HANDLED;
}

static int rxp_probe(struct platform_device *pdev)
{
	struct rxp_port *port = platform_get_drvdata(pdev);

	INIT_WORK(&port->rx_task, rxp_rx_task);
	return request_irq(port->irq, rxp_irq, 0, "rxp", port);
}

static void rxp_remove(struct platform_device *pdev)
{
	struct rxp_port *port = platform_get_drvdata(pdev);

	free_irq(port->irq, port);
	flush_work(&port->rx_task);
}

static struct platform_driver rxp_driver = {
	.probe = rxp_probe,
	.remove = rxp_remove,
};
