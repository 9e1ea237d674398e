// SPDX-License-Identifier: GPL-2.0
/*
 * A crypto engine's probe stores its struct device in the core object that
 * holds the tasklet and makes that object the device's drvdata, both
 * before tasklet_init(), which is given the device. The callback uses the
 * device only to look its drvdata up: that is the object around the work
 * item, so the callback finds it with from_work() and the device pointer
 * goes.
 */
#include <linux/interrupt.h>
#include <linux/platform_device.h>

struct engine;

struct engine_core {
	struct engine *eng;
	struct device *device;
	struct tasklet_struct tasklet;
	int irq;
};

static void engine_bh_tasklet_cb(unsigned long data)
{
	struct device *dev = (struct device *)data;
	struct engine_core *core = dev_get_drvdata(dev);

	engine_drain(core->eng);
}

static irqreturn_t engine_irq(int irq, void *data)
{
	struct engine_core *core = dev_get_drvdata(data);

	tasklet_schedule(&core->tasklet);
	return IRQ_HANDLED;
}

static int engine_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct engine_core *core;
	int rc;

	core = devm_kzalloc(dev, sizeof(*core), GFP_KERNEL);
	if (!core)
		return -ENOMEM;

	dev_set_drvdata(dev, core);
	core->eng = devm_kzalloc(dev, 64, GFP_KERNEL);
	if (!core->eng)
		return -ENOMEM;

	core->device = dev;
	tasklet_init(&core->tasklet, engine_bh_tasklet_cb, (unsigned long)dev);

	core->irq = platform_get_irq(pdev, 0);
	rc = request_irq(core->irq, engine_irq, 0, "engine", dev);
	if (rc)
		goto err_tasklet;
	return 0;

err_tasklet:
	tasklet_kill(&core->tasklet);
	return rc;
}

static void engine_remove(struct platform_device *pdev)
{
	struct engine_core *core = dev_get_drvdata(&pdev->dev);

	free_irq(core->irq, &pdev->dev);
	tasklet_kill(&core->tasklet);
}

static struct platform_driver engine_driver = {
	.probe = engine_probe,
	.remove = engine_remove,
};
module_platform_driver(engine_driver);
