// SPDX-License-Identifier: GPL-2.0
/*
 * Hi and normal schedules of one field name, chosen per hardware variant
 * at probe (xilinx_dma's shape): the decision keeps each site on its own
 * queue, since both never apply to the same channel.
 */
#include <linux/interrupt.h>

struct xchan {
	struct work_struct tasklet;
	int mcdma;
};

static void xchan_do(struct work_struct *work)
{
}

static void xchan_mcdma_irq(struct xchan *c)
{
	queue_work(system_bh_highpri_wq, &c->tasklet);
}

static void xchan_dma_irq(struct xchan *c)
{
	queue_work(system_bh_wq, &c->tasklet);
}

static void xchan_init(struct xchan *c)
{
	INIT_WORK(&c->tasklet, xchan_do);
}
