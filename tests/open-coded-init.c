// SPDX-License-Identifier: GPL-2.0
/* The tasklet is set up by assigning .data and .func, not tasklet_init(). */
#include <linux/interrupt.h>

struct lan_channel {
	struct tasklet_struct irq_tasklet;
	int io_idx;
};

struct lan_card {
	struct lan_channel read;
	struct lan_channel write;
};

static void lan_tasklet(unsigned long);

static void lan_setup_read(struct lan_card *card)
{
	card->read.io_idx = 0;
	/* Initialize read channel tasklet. */
	card->read.irq_tasklet.data = (unsigned long) &card->read;
	card->read.irq_tasklet.func = lan_tasklet;
}

static void lan_setup_write(struct lan_card *card)
{
	card->write.io_idx = 0;
	card->write.irq_tasklet.func = lan_tasklet;
	card->write.irq_tasklet.data = (unsigned long) &card->write;
}

static void lan_cleanup_channel(struct lan_channel *channel)
{
	tasklet_kill(&channel->irq_tasklet);
}

static void lan_irq(struct lan_channel *channel)
{
	tasklet_schedule(&channel->irq_tasklet);
}

static void lan_tasklet(unsigned long data)
{
	struct lan_channel *channel = (struct lan_channel *) data;

	channel->io_idx++;
}
