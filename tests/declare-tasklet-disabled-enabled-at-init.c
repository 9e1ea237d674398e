// SPDX-License-Identifier: GPL-2.0
/*
 * A keyboard controller's tasklet, declared disabled and enabled once in
 * the module's init before the interrupt handler that queues it is
 * requested (the old PS/2 and HIL drivers' shape): no run is ever held
 * back, so the item is declared enabled and the enable goes.
 */
#include <linux/interrupt.h>
#include <linux/module.h>

static void kbc_bh(struct tasklet_struct *t);
static DECLARE_TASKLET_DISABLED(kbc_tasklet, kbc_bh);

static int kbc_irq = 1;
static unsigned char kbc_fifo[16];
static int kbc_head;

static void kbc_bh(struct tasklet_struct *t)
{
	while (kbc_head > 0)
		kbc_fifo[--kbc_head] = 0;
}

static irqreturn_t kbc_interrupt(int irq, void *dev_id)
{
	if (kbc_head < 16)
		kbc_fifo[kbc_head++] = 1;
	tasklet_schedule(&kbc_tasklet);
	return IRQ_HANDLED;
}

static int __init kbc_init(void)
{
	int err;

	tasklet_enable(&kbc_tasklet);
	err = request_irq(kbc_irq, kbc_interrupt, 0, "kbc", NULL);
	if (err)
		return err;
	/* drain what the firmware left */
	tasklet_schedule(&kbc_tasklet);
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
