// SPDX-License-Identifier: GPL-2.0
#include <linux/platform_device.h>
#include "vchan.h"

struct drv_chan {
	struct vchan vc;
	int id;
};

struct drv_dev {
	struct tasklet_struct task;
	struct drv_chan chan;
	int irq;
	int pending;
};

static void drv_tasklet(struct tasklet_struct *t)
{
	struct drv_dev *d = from_tasklet(d, t, task);

	d->pending = 0;
}

static irqreturn_t drv_irq(int irq, void *dev_id)
{
	struct drv_dev *d = dev_id;

	d->pending++;
	tasklet_schedule(&d->task);
	return IRQ_HANDLED;
}

static int drv_probe(struct platform_device *pdev)
{
	struct drv_dev *d = devm_kzalloc(&pdev->dev, sizeof(*d), GFP_KERNEL);

	if (!d)
		return -ENOMEM;
	tasklet_setup(&d->task, drv_tasklet);
	vchan_init(&d->chan.vc);
	platform_set_drvdata(pdev, d);
	d->irq = platform_get_irq(pdev, 0);
	return request_irq(d->irq, drv_irq, 0, "drv", d);
}

static void drv_free_chan(struct drv_chan *c)
{
	tasklet_kill(&c->vc.task);
}

static void drv_remove(struct platform_device *pdev)
{
	struct drv_dev *d = platform_get_drvdata(pdev);

	free_irq(d->irq, d);
	tasklet_kill(&d->task);
	drv_free_chan(&d->chan);
}

static struct platform_driver drv_driver = {
	.probe = drv_probe,
	.remove = drv_remove,
};
module_platform_driver(drv_driver);
