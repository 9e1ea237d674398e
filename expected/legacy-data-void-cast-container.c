// SPDX-License-Identifier: GPL-2.0
/*
 * The data is the container, and the callback's one read of it is a
 * (void *) cast into a pointer to that container (switchtec_dma, ntb,
 * vmbus): the pointer is from_work() of the work item, with no local.
 */
#include <linux/interrupt.h>

struct dma_chan_priv {
	struct work_struct desc_task;
	int done;
};

static void chan_desc_task(struct work_struct *work)
{
	struct dma_chan_priv *chan = from_work(chan, work, desc_task);

	chan->done = 1;
}

static int chan_init(struct dma_chan_priv *chan)
{
	INIT_WORK(&chan->desc_task, chan_desc_task);
	return 0;
}

static void chan_irq(struct dma_chan_priv *chan)
{
	queue_work(system_bh_wq, &chan->desc_task);
}

static void chan_free(struct dma_chan_priv *chan)
{
	flush_work(&chan->desc_task);
}
