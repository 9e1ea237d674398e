// SPDX-License-Identifier: GPL-2.0
/*
 * The channel's tasklet is set up only when the card is set online
 * (.set_online), but the helper that kills it also runs from the probe's
 * (.setup) allocation error path, and from .remove for a card never set
 * online: a kill before the item was ever set up, which cancel_work_sync()
 * WARNs on. The kill-before-init rule sees one function; this is found
 * through the callers. Refused.
 */
#include <linux/interrupt.h>
#include <linux/slab.h>
#include <asm/ccwgroup.h>

struct chn {
	struct tasklet_struct irq_tasklet;
	void *buf;
};

struct card {
	struct chn read, write;
};

static void card_tasklet(unsigned long data)
{
	struct chn *ch = (struct chn *)data;

	(void)ch->buf;
}

static void card_cleanup_channel(struct chn *ch)
{
	tasklet_kill(&ch->irq_tasklet);
	kfree(ch->buf);
}

static struct card *card_alloc(void)
{
	struct card *card = kzalloc(sizeof(*card), GFP_KERNEL);

	if (!card)
		return NULL;
	card->read.buf = kzalloc(64, GFP_KERNEL);
	card->write.buf = kzalloc(64, GFP_KERNEL);
	if (!card->write.buf) {
		card_cleanup_channel(&card->read);
		kfree(card);
		return NULL;
	}
	return card;
}

static int card_probe_device(struct ccwgroup_device *gdev)
{
	struct card *card = card_alloc();

	if (!card)
		return -ENOMEM;
	dev_set_drvdata(&gdev->dev, card);
	return 0;
}

static int card_set_online(struct ccwgroup_device *gdev)
{
	struct card *card = dev_get_drvdata(&gdev->dev);

	tasklet_init(&card->read.irq_tasklet, card_tasklet, (unsigned long)&card->read);
	tasklet_init(&card->write.irq_tasklet, card_tasklet, (unsigned long)&card->write);
	return 0;
}

static void card_remove_device(struct ccwgroup_device *gdev)
{
	struct card *card = dev_get_drvdata(&gdev->dev);

	card_cleanup_channel(&card->write);
	card_cleanup_channel(&card->read);
	kfree(card);
}

static struct ccwgroup_driver card_group_driver = {
	.setup = card_probe_device,
	.remove = card_remove_device,
	.set_online = card_set_online,
};
