// SPDX-License-Identifier: GPL-2.0
/*
 * A receive tasklet that drains the ring through the hardware variant's
 * ops member, set in the driver to functions that neither complete work a
 * caller waits for nor queue the tasklet again. The kill in .remove, after
 * free_irq(), is a teardown whose dropped run nobody waits for: the reach
 * follows rx->ops->drain() to both variants' drain functions, and
 * cancel_work_sync() stays exact.
 */
#include <linux/interrupt.h>
#include <linux/platform_device.h>

struct rxr;

struct rxr_ops {
	void (*drain)(struct rxr *rx);
};

struct rxr {
	struct work_struct task;
	const struct rxr_ops *ops;
	int irq;
	unsigned int head, tail, dropped;
};

static void rxr_v1_drain(struct rxr *rx)
{
	rx->tail = rx->head;
}

static void rxr_v2_drain(struct rxr *rx)
{
	rx->dropped += rx->head - rx->tail;
	rx->tail = rx->head;
}

static const struct rxr_ops rxr_v1_ops = {
	.drain = rxr_v1_drain,
};

static const struct rxr_ops rxr_v2_ops = {
	.drain = rxr_v2_drain,
};

static void rxr_task(struct work_struct *work)
{
	struct rxr *rx = from_work(rx, work, task);

	rx->ops->drain(rx);
}

static int rxr_probe(struct platform_device *pdev)
{
	struct rxr *rx = platform_get_drvdata(pdev);

	rx->ops = device_get_match_data(&pdev->dev) ? &rxr_v2_ops : &rxr_v1_ops;
	INIT_WORK(&rx->task, rxr_task);
	return 0;
}

static void rxr_remove(struct platform_device *pdev)
{
	struct rxr *rx = platform_get_drvdata(pdev);

	free_irq(rx->irq, rx);
	cancel_work_sync(&rx->task);
}

static struct platform_driver rxr_driver = {
	.probe = rxr_probe,
	.remove = rxr_remove,
};
