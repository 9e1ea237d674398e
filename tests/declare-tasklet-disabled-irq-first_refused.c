// SPDX-License-Identifier: GPL-2.0
/*
 * The same controller, but the interrupt is requested before the enable:
 * an interrupt in between queues the tasklet, which the disabled tasklet
 * held back until the enable and a work item declared enabled would run
 * at once. Not proven: the file stays as it is.
 */
#include <linux/interrupt.h>
#include <linux/module.h>

static void kbc_bh(struct tasklet_struct *t);
static DECLARE_TASKLET_DISABLED(kbc_tasklet, kbc_bh);

static int kbc_irq = 1;

static void kbc_bh(struct tasklet_struct *t)
{
}

static irqreturn_t kbc_interrupt(int irq, void *dev_id)
{
	tasklet_schedule(&kbc_tasklet);
	return IRQ_HANDLED;
}

static int __init kbc_init(void)
{
	int err;

	err = request_irq(kbc_irq, kbc_interrupt, 0, "kbc", NULL);
	if (err)
		return err;
	tasklet_enable(&kbc_tasklet);
	return 0;
}

static void __exit kbc_exit(void)
{
	free_irq(kbc_irq, NULL);
	tasklet_kill(&kbc_tasklet);
}

module_init(kbc_init);
module_exit(kbc_exit);
MODULE_LICENSE("GPL");
