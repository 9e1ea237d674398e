// SPDX-License-Identifier: GPL-2.0+
/*
 * Tasklets set up on every open of the port but killed at remove whether
 * or not it was opened: cocci/drivers/atmel_serial.cocci sets them up once
 * in probe. The kills keep the pending run (the case's decisions).
 */
#include <linux/atomic.h>
#include <linux/interrupt.h>
#include <linux/platform_device.h>
#include <linux/serial_core.h>

struct atmel_uart_port {
	struct uart_port	uart;
	struct tasklet_struct	tasklet_rx;
	struct tasklet_struct	tasklet_tx;
	atomic_t		tasklet_shutdown;
	unsigned int		rx_head;
};

static struct atmel_uart_port atmel_ports[4];
static struct uart_driver atmel_uart;

static void atmel_tasklet_schedule(struct atmel_uart_port *atmel_port,
				   struct tasklet_struct *t)
{
	if (!atomic_read(&atmel_port->tasklet_shutdown))
		tasklet_schedule(t);
}

static irqreturn_t atmel_interrupt(int irq, void *dev_id)
{
	struct atmel_uart_port *atmel_port = dev_id;

	atmel_tasklet_schedule(atmel_port, &atmel_port->tasklet_rx);
	return IRQ_HANDLED;
}

static void atmel_tasklet_rx_func(struct tasklet_struct *t)
{
	struct atmel_uart_port *atmel_port = from_tasklet(atmel_port, t,
							  tasklet_rx);

	atmel_port->rx_head = 0;
}

static void atmel_tasklet_tx_func(struct tasklet_struct *t)
{
	struct atmel_uart_port *atmel_port = from_tasklet(atmel_port, t,
							  tasklet_tx);

	uart_write_wakeup(&atmel_port->uart);
}

static int atmel_startup(struct uart_port *port)
{
	struct atmel_uart_port *atmel_port = container_of(port, struct atmel_uart_port, uart);
	int retval;

	retval = request_irq(port->irq, atmel_interrupt, IRQF_SHARED, "atmel", atmel_port);
	if (retval)
		return retval;

	atomic_set(&atmel_port->tasklet_shutdown, 0);
	tasklet_setup(&atmel_port->tasklet_rx, atmel_tasklet_rx_func);
	tasklet_setup(&atmel_port->tasklet_tx, atmel_tasklet_tx_func);

	return 0;
}

static void atmel_shutdown(struct uart_port *port)
{
	struct atmel_uart_port *atmel_port = container_of(port, struct atmel_uart_port, uart);

	atomic_inc(&atmel_port->tasklet_shutdown);
	synchronize_irq(port->irq);
	tasklet_kill(&atmel_port->tasklet_rx);
	tasklet_kill(&atmel_port->tasklet_tx);
	free_irq(port->irq, atmel_port);
}

static const struct uart_ops atmel_pops = {
	.startup	= atmel_startup,
	.shutdown	= atmel_shutdown,
};

static int atmel_serial_probe(struct platform_device *pdev)
{
	struct atmel_uart_port *atmel_port = &atmel_ports[pdev->id];

	atomic_set(&atmel_port->tasklet_shutdown, 0);
	atmel_port->uart.ops = &atmel_pops;
	platform_set_drvdata(pdev, atmel_port);

	return uart_add_one_port(&atmel_uart, &atmel_port->uart);
}

static void atmel_serial_remove(struct platform_device *pdev)
{
	struct atmel_uart_port *atmel_port = platform_get_drvdata(pdev);

	tasklet_kill(&atmel_port->tasklet_rx);
	tasklet_kill(&atmel_port->tasklet_tx);

	uart_remove_one_port(&atmel_uart, &atmel_port->uart);
}

static struct platform_driver atmel_serial_driver = {
	.probe		= atmel_serial_probe,
	.remove		= atmel_serial_remove,
	.driver		= {
		.name	= "atmel_usart_serial",
	},
};
module_platform_driver(atmel_serial_driver);
