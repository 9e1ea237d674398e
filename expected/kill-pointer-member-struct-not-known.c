// SPDX-License-Identifier: GPL-2.0
/*
 * An HDLC controller driver with typedef'd channel structs, as older
 * drivers have them: the done tasklet calls ch->tx_done(ch), and the driver
 * sets tx_done to hx_tx_done() at open. The struct of ch is a typedef of an
 * unnamed struct, so the analysis cannot tell whether that call runs
 * hx_tx_done() or code outside the file: it follows hx_tx_done() ("which
 * may hold", never "set to") and checks that outside code cannot queue the
 * tasklet (only the interrupt handler does, through request_irq()): the
 * kill in .remove, after free_irq(), is flush then cancel, exact.
 */
#include <linux/interrupt.h>
#include <linux/platform_device.h>

typedef struct hx_chan hx_chan_t;

typedef struct {
	void (*tx_done)(hx_chan_t *ch);
	unsigned int pending;
} hx_chan_ops_t;

struct hx_chan {
	hx_chan_ops_t ops;
	unsigned int done;
};

struct hx_card {
	struct work_struct bh;
	hx_chan_t chan[4];
	void __iomem *regs;
	int irq;
};

static void hx_tx_done(hx_chan_t *ch)
{
	ch->done++;
}

static void hx_bh(struct work_struct *work)
{
	struct hx_card *card = from_work(card, work, bh);
	int i;

	for (i = 0; i < 4; i++) {
		hx_chan_ops_t *ops = &card->chan[i].ops;

		if (ops->pending)
			ops->tx_done(&card->chan[i]);
	}
}

static irqreturn_t hx_irq(int irq, void *dev_id)
{
	struct hx_card *card = dev_id;

	queue_work(system_bh_wq, &card->bh);
	return IRQ_HANDLED;
}

static int hx_probe(struct platform_device *pdev)
{
	struct hx_card *card = platform_get_drvdata(pdev);
	int i;

	for (i = 0; i < 4; i++)
		card->chan[i].ops.tx_done = hx_tx_done;
	INIT_WORK(&card->bh, hx_bh);
	return request_irq(card->irq, hx_irq, 0, "hx", card);
}

static void hx_remove(struct platform_device *pdev)
{
	struct hx_card *card = platform_get_drvdata(pdev);

	free_irq(card->irq, card);
	flush_work(&card->bh);
}

static struct platform_driver hx_driver = {
	.probe = hx_probe,
	.remove = hx_remove,
};
