// SPDX-License-Identifier: GPL-2.0
/* The tasklet is set up by assigning .data and .func, not tasklet_init(). */
#include <linux/interrupt.h>

struct lan_channel {
	struct work_struct irq_tasklet;
	int io_idx;
};

struct lan_card {
	struct lan_channel read;
	struct lan_channel write;
};

static void lan_tasklet(struct work_struct *);

static void lan_setup_read(struct lan_card *card)
{
	card->read.io_idx = 0;
	/* Initialize read channel tasklet. */
	INIT_WORK(&card->read.irq_tasklet, lan_tasklet);
}

static void lan_setup_write(struct lan_card *card)
{
	card->write.io_idx = 0;
	INIT_WORK(&card->write.irq_tasklet, lan_tasklet);
}

static void lan_cleanup_channel(struct lan_channel *channel)
{
	flush_work(&channel->irq_tasklet);
}

static void lan_irq(struct lan_channel *channel)
{
	queue_work(system_bh_wq, &channel->irq_tasklet);
}

static void lan_tasklet(struct work_struct *work)
{
	struct lan_channel *channel = from_work(channel, work, irq_tasklet);

	channel->io_idx++;
}
