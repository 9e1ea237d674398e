// SPDX-License-Identifier: GPL-2.0-only
#include "esas2r.h"

int esas2r_init_adapter(struct esas2r_adapter *a)
{
	a->req_table = kzalloc(64, GFP_KERNEL);
	if (!a->req_table) {
		esas2r_kill_adapter(a);
		return 0;
	}

	tasklet_init(&a->tasklet,
		     esas2r_adapter_tasklet,
		     (unsigned long)a);

	if (!request_irq(a->pcid->irq, esas2r_interrupt, IRQF_SHARED, "esas2r", a))
		set_bit(AF2_IRQ_CLAIMED, &a->flags2);

	set_bit(AF2_INIT_DONE, &a->flags2);
	return 1;
}

static void esas2r_adapter_power_down(struct esas2r_adapter *a,
				      int power_management)
{
	if ((test_bit(AF2_INIT_DONE, &a->flags2))
	    &&  (!test_bit(AF_DEGRADED_MODE, &a->flags))) {
		if (!power_management) {
			timer_delete_sync(&a->timer);
			tasklet_kill(&a->tasklet);
		}
		esas2r_power_down(a);
		mdelay(500);
	}

	/* Clean up interrupts */
	if (test_bit(AF2_IRQ_CLAIMED, &a->flags2)) {
		free_irq(a->pcid->irq, a);
		clear_bit(AF2_IRQ_CLAIMED, &a->flags2);
	}

	if (test_bit(AF2_MSI_ENABLED, &a->flags2)) {
		pci_disable_msi(a->pcid);
		clear_bit(AF2_MSI_ENABLED, &a->flags2);
	}

	kfree(a->req_table);
	a->req_table = NULL;

	if (a->regs) {
		iounmap(a->regs);
		a->regs = NULL;
	}
}

void esas2r_kill_adapter(struct esas2r_adapter *a)
{
	esas2r_adapter_power_down(a, 0);
	clear_bit(AF2_INIT_DONE, &a->flags2);
}

static int __maybe_unused esas2r_suspend(struct device *dev)
{
	struct esas2r_adapter *a = dev_get_drvdata(dev);

	esas2r_adapter_power_down(a, 1);
	return 0;
}
