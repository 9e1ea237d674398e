// SPDX-License-Identifier: GPL-2.0
/*
 * A kill in the driver's .remove, after free_irq(): teardown, so
 * cancel_work_sync() (a run still pending is not needed by a device going
 * away); and a kill in probe's error unwind, after its label: teardown too.
 */
#include <linux/interrupt.h>
#include <linux/platform_device.h>

struct dmac {
	struct work_struct task;
	int irq;
};

static void dmac_done(struct work_struct *work)
{
	struct dmac *d = from_work(d, work, task);

	(void)d;
}

static int dmac_probe(struct platform_device *pdev)
{
	struct dmac *d = platform_get_drvdata(pdev);
	int ret;

	INIT_WORK(&d->task, dmac_done);
	ret = request_irq(d->irq, NULL, 0, "dmac", d);
	if (ret)
		goto err_kill;
	return 0;

err_kill:
	cancel_work_sync(&d->task);
	return ret;
}

static void dmac_remove(struct platform_device *pdev)
{
	struct dmac *d = platform_get_drvdata(pdev);

	free_irq(d->irq, d);
	cancel_work_sync(&d->task);
}

static struct platform_driver dmac_driver = {
	.probe = dmac_probe,
	.remove = dmac_remove,
};
