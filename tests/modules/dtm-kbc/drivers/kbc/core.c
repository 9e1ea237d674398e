// SPDX-License-Identifier: GPL-2.0-only
/*
 * The controller: one global tasklet declared disabled, enabled in the
 * module's init before the platform driver whose probe requests the
 * interrupt is registered (the old i8042 and HIL shape).
 */
#include <linux/module.h>
#include <kbc/kbc.h>

static void kbc_bh(struct tasklet_struct *t);
static DECLARE_TASKLET_DISABLED(kbc_tasklet, kbc_bh);

static unsigned int kbc_events;

static void kbc_bh(struct tasklet_struct *t)
{
	kbc_events = 0;
}

static irqreturn_t kbc_interrupt(int irq, void *dev_id)
{
	kbc_events++;
	tasklet_schedule(&kbc_tasklet);
	return IRQ_HANDLED;
}

static int kbc_probe(struct platform_device *pdev)
{
	int irq = platform_get_irq(pdev, 0);

	if (irq < 0)
		return irq;
	return devm_request_irq(&pdev->dev, irq, kbc_interrupt, 0, "kbc", NULL);
}

static struct platform_driver kbc_driver = {
	.probe = kbc_probe,
	.driver = {
		.name = "dtm-kbc",
	},
};

static int __init kbc_init(void)
{
	int err;

	tasklet_enable(&kbc_tasklet);
	err = platform_driver_register(&kbc_driver);
	if (err)
		return err;
	err = platform_driver_register(&kbc_port_driver);
	if (err)
		platform_driver_unregister(&kbc_driver);
	return err;
}

static void __exit kbc_exit(void)
{
	platform_driver_unregister(&kbc_port_driver);
	platform_driver_unregister(&kbc_driver);
	tasklet_kill(&kbc_tasklet);
}

module_init(kbc_init);
module_exit(kbc_exit);
MODULE_LICENSE("GPL");
