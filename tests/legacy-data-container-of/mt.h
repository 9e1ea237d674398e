/* SPDX-License-Identifier: GPL-2.0 */
#include <linux/interrupt.h>

struct mt76_dev {
	struct tasklet_struct irq_tasklet;
};

struct mt_dev {
	struct mt76_dev mt76;
	unsigned int irqs;
};

void mt_irq_tasklet(unsigned long data);
