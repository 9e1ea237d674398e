// SPDX-License-Identifier: GPL-2.0
/*
 * The data is the container, and the callback's one read of it is a
 * (void *) cast into a pointer to that container (switchtec_dma, ntb,
 * vmbus): the pointer is from_work() of the work item, with no local.
 */
#include <linux/interrupt.h>

struct dma_chan_priv {
	struct tasklet_struct desc_task;
	int done;
};

static void chan_desc_task(unsigned long data)
{
	struct dma_chan_priv *chan = (void *)data;

	chan->done = 1;
}

static int chan_init(struct dma_chan_priv *chan)
{
	tasklet_init(&chan->desc_task, chan_desc_task, (unsigned long)chan);
	return 0;
}

static void chan_irq(struct dma_chan_priv *chan)
{
	tasklet_schedule(&chan->desc_task);
}

static void chan_free(struct dma_chan_priv *chan)
{
	tasklet_kill(&chan->desc_task);
}
