// SPDX-License-Identifier: GPL-2.0
/*
 * A message-unit core whose completion tasklet calls the handler each
 * client module registered (mu->ops->rx(), a pointer only the clients
 * set). The core exports mu_send() for those clients, and mu_send()
 * queues the tasklet through a static helper: a client's rx() may call
 * mu_send() and queue it again from inside the run. tasklet_kill() waited
 * for that run, flush_work() waits for one run only: refused, naming the
 * exported function and the unread call.
 */
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/platform_device.h>

struct mu;

struct mu_client_ops {
	void (*rx)(struct mu *mu, u32 msg);
};

struct mu {
	struct tasklet_struct done_task;
	const struct mu_client_ops *ops;
	u32 msg;
	int irq;
};

static void mu_done_task(struct tasklet_struct *t)
{
	struct mu *mu = from_tasklet(mu, t, done_task);

	mu->ops->rx(mu, mu->msg);
}

static void mu_kick(struct mu *mu)
{
	tasklet_schedule(&mu->done_task);
}

int mu_send(struct mu *mu, u32 msg)
{
	mu->msg = msg;
	mu_kick(mu);
	return 0;
}
EXPORT_SYMBOL_GPL(mu_send);

static int mu_probe(struct platform_device *pdev)
{
	struct mu *mu = platform_get_drvdata(pdev);

	tasklet_setup(&mu->done_task, mu_done_task);
	return 0;
}

static void mu_remove(struct platform_device *pdev)
{
	struct mu *mu = platform_get_drvdata(pdev);

	tasklet_kill(&mu->done_task);
}

static struct platform_driver mu_driver = {
	.probe = mu_probe,
	.remove = mu_remove,
};
