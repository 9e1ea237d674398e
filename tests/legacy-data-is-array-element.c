// SPDX-License-Identifier: GPL-2.0
/* Legacy init in a loop: data is the array element holding the tasklet. */
#include <linux/interrupt.h>

struct dma_chan_priv {
	struct tasklet_struct tasklet;
	int id;
};

struct dma_dev {
	struct dma_chan_priv chan[4];
};

static void chan_tasklet(unsigned long data)
{
	struct dma_chan_priv *c = (struct dma_chan_priv *)data;

	c->id++;
}

static void dma_setup(struct dma_dev *d)
{
	int i;

	for (i = 0; i < 4; i++)
		tasklet_init(&d->chan[i].tasklet, chan_tasklet,
			     (unsigned long)&d->chan[i]);
}
