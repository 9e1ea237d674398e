// SPDX-License-Identifier: GPL-2.0
/*
 * One file-scope tasklet, declared disabled, that probe points at the
 * probed device and enables: cocci/drivers/omap-keypad.cocci moves it into
 * the device, reached by the interrupt through dev_id and by the timer
 * through its container.
 */
#include <linux/interrupt.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/timer.h>

static void omap_kp_tasklet(unsigned long);
static void omap_kp_timer(struct timer_list *);

struct omap_kp {
	struct timer_list timer;
	int irq;
	unsigned int pressed;
	unsigned short keymap[];
};

static DECLARE_TASKLET_DISABLED_OLD(kp_tasklet, omap_kp_tasklet);

static irqreturn_t omap_kp_interrupt(int irq, void *dev_id)
{
	tasklet_schedule(&kp_tasklet);

	return IRQ_HANDLED;
}

static void omap_kp_timer(struct timer_list *unused)
{
	tasklet_schedule(&kp_tasklet);
}

static void omap_kp_tasklet(unsigned long data)
{
	struct omap_kp *omap_kp_data = (struct omap_kp *) data;

	if (omap_kp_data->pressed)
		mod_timer(&omap_kp_data->timer, jiffies + HZ / 20);
}

static int omap_kp_probe(struct platform_device *pdev)
{
	struct omap_kp *omap_kp;

	omap_kp = kzalloc(struct_size(omap_kp, keymap, 8), GFP_KERNEL);
	if (!omap_kp)
		return -ENOMEM;

	platform_set_drvdata(pdev, omap_kp);
	timer_setup(&omap_kp->timer, omap_kp_timer, 0);

	kp_tasklet.data = (unsigned long) omap_kp;
	tasklet_enable(&kp_tasklet);

	omap_kp->irq = platform_get_irq(pdev, 0);
	if (request_irq(omap_kp->irq, omap_kp_interrupt, 0, "omap-keypad", omap_kp) < 0)
		goto err;

	return 0;
err:
	kfree(omap_kp);
	return -EINVAL;
}

static void omap_kp_remove(struct platform_device *pdev)
{
	struct omap_kp *omap_kp = platform_get_drvdata(pdev);

	tasklet_disable(&kp_tasklet);
	free_irq(omap_kp->irq, omap_kp);

	timer_shutdown_sync(&omap_kp->timer);
	tasklet_kill(&kp_tasklet);

	kfree(omap_kp);
}

static struct platform_driver omap_kp_driver = {
	.probe		= omap_kp_probe,
	.remove		= omap_kp_remove,
	.driver		= {
		.name	= "omap-keypad",
	},
};
module_platform_driver(omap_kp_driver);
