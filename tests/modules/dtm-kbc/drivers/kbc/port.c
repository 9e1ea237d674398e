// SPDX-License-Identifier: GPL-2.0-only
/*
 * A port: its TX tasklet, and a .remove that waits for a running one
 * (tasklet_unlock_wait) before it frees the port.
 */
#include <linux/slab.h>
#include <kbc/kbc.h>

static void kbc_port_tx(struct tasklet_struct *t)
{
	struct kbc_port *port = from_tasklet(port, t, tx_tasklet);

	port->tx_len = 0;
}

static irqreturn_t kbc_port_irq(int irq, void *dev_id)
{
	struct kbc_port *port = dev_id;

	tasklet_schedule(&port->tx_tasklet);
	return IRQ_HANDLED;
}

static int kbc_port_probe(struct platform_device *pdev)
{
	struct kbc_port *port = kzalloc(sizeof(*port), GFP_KERNEL);
	int irq = platform_get_irq(pdev, 0);

	if (!port)
		return -ENOMEM;
	port->pdev = pdev;
	tasklet_setup(&port->tx_tasklet, kbc_port_tx);
	platform_set_drvdata(pdev, port);
	return request_irq(irq, kbc_port_irq, 0, "kbc-port", port);
}

static void kbc_port_remove(struct platform_device *pdev)
{
	struct kbc_port *port = platform_get_drvdata(pdev);

	free_irq(platform_get_irq(pdev, 0), port);
	tasklet_unlock_wait(&port->tx_tasklet);
	kfree(port);
}

struct platform_driver kbc_port_driver = {
	.probe = kbc_port_probe,
	.remove = kbc_port_remove,
	.driver = {
		.name = "dtm-kbc-port",
	},
};
