// SPDX-License-Identifier: GPL-2.0
/* Legacy init in a loop: data is the array element holding the tasklet. */
#include <linux/interrupt.h>

struct dma_chan_priv {
	struct work_struct tasklet;
	int id;
};

struct dma_dev {
	struct dma_chan_priv chan[4];
};

static void chan_tasklet(struct work_struct *work)
{
	struct dma_chan_priv *c = from_work(c, work, tasklet);

	c->id++;
}

static void dma_setup(struct dma_dev *d)
{
	int i;

	for (i = 0; i < 4; i++)
		INIT_WORK(&d->chan[i].tasklet, chan_tasklet);
}
