// SPDX-License-Identifier: GPL-2.0
/*
 * Hi and normal schedules of one field name, chosen per hardware variant
 * at probe (xilinx_dma's shape): the decision keeps each site on its own
 * queue, since both never apply to the same channel.
 */
#include <linux/interrupt.h>

struct xchan {
	struct tasklet_struct tasklet;
	int mcdma;
};

static void xchan_do(struct tasklet_struct *t)
{
}

static void xchan_mcdma_irq(struct xchan *c)
{
	tasklet_hi_schedule(&c->tasklet);
}

static void xchan_dma_irq(struct xchan *c)
{
	tasklet_schedule(&c->tasklet);
}

static void xchan_init(struct xchan *c)
{
	tasklet_setup(&c->tasklet, xchan_do);
}
