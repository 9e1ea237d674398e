/* SPDX-License-Identifier: GPL-2.0-only */
/* A made-up adapter driver in the shape of drivers/scsi/esas2r. */
#include <linux/interrupt.h>
#include <linux/pci.h>
#include <linux/timer.h>

#define AF_TASKLET_SCHEDULED	0
#define AF_DEGRADED_MODE	1
#define AF_CHPRST_NEEDED	2
#define AF2_INIT_DONE		0
#define AF2_IRQ_CLAIMED		1
#define AF2_MSI_ENABLED		2
#define AF2_INT_PENDING		3
#define AF2_TIMER_TICK		4

struct esas2r_adapter {
	unsigned long flags;
	unsigned long flags2;
	struct tasklet_struct tasklet;
	struct timer_list timer;
	struct pci_dev *pcid;
	void *req_table;
	void __iomem *regs;
};

void esas2r_adapter_tasklet(unsigned long context);
void esas2r_kill_adapter(struct esas2r_adapter *a);
int esas2r_init_adapter(struct esas2r_adapter *a);
void esas2r_power_down(struct esas2r_adapter *a);
void esas2r_adapter_interrupt(struct esas2r_adapter *a);
irqreturn_t esas2r_interrupt(int irq, void *dev_id);

static inline bool esas2r_is_tasklet_pending(struct esas2r_adapter *a)
{
	return test_bit(AF_CHPRST_NEEDED, &a->flags);
}

static inline void esas2r_schedule_tasklet(struct esas2r_adapter *a)
{
	if (!test_and_set_bit(AF_TASKLET_SCHEDULED, &a->flags))
		tasklet_hi_schedule(&a->tasklet);
}
