// SPDX-License-Identifier: GPL-2.0
/*
 * As in a crypto engine whose probe makes the core object the drvdata of
 * its device and stores the device in it before tasklet_init(), which is
 * given the device; but the callback also logs with the device, so the
 * device stays: it is read back from the member the probe stored it in,
 * the line wrapped within 80 columns. The drvdata look-up stays too.
 */
#include <linux/interrupt.h>
#include <linux/platform_device.h>

struct engine;

struct engine_core_device {
	struct engine *eng;
	struct device *device;
	struct tasklet_struct bh_tasklet;
	int irq;
};

static void engine_bh_tasklet_cb(unsigned long data)
{
	struct device *dev = (struct device *)data;
	struct engine_core_device *core = dev_get_drvdata(dev);

	dev_dbg(dev, "draining\n");
	engine_drain(core->eng);
}

static irqreturn_t engine_irq(int irq, void *data)
{
	struct engine_core_device *core = dev_get_drvdata(data);

	tasklet_schedule(&core->bh_tasklet);
	return IRQ_HANDLED;
}

static int engine_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct engine_core_device *core;
	int rc;

	core = devm_kzalloc(dev, sizeof(*core), GFP_KERNEL);
	if (!core)
		return -ENOMEM;

	dev_set_drvdata(dev, core);
	core->device = dev;
	tasklet_init(&core->bh_tasklet, engine_bh_tasklet_cb, (unsigned long)dev);

	core->irq = platform_get_irq(pdev, 0);
	rc = request_irq(core->irq, engine_irq, 0, "engine", dev);
	if (rc)
		goto err_tasklet;
	return 0;

err_tasklet:
	tasklet_kill(&core->bh_tasklet);
	return rc;
}

static void engine_remove(struct platform_device *pdev)
{
	struct engine_core_device *core = dev_get_drvdata(&pdev->dev);

	free_irq(core->irq, &pdev->dev);
	tasklet_kill(&core->bh_tasklet);
}

static struct platform_driver engine_driver = {
	.probe = engine_probe,
	.remove = engine_remove,
};
module_platform_driver(engine_driver);
