// SPDX-License-Identifier: GPL-2.0-only
/*
 * dtm_hilo: a test module in the shape of a sound or serial driver: one
 * completion tasklet scheduled high-priority from the interrupt and normally
 * from the ioctl path, a kill outside teardown (a flush before a format
 * change, from the ioctl and at init), and a legacy tasklet_init() whose
 * data is the device.
 */
#include <linux/module.h>
#include <linux/interrupt.h>
#include <linux/slab.h>
#include <linux/fs.h>

struct dtm_stream {
	struct tasklet_struct done_tasklet;
	unsigned int periods;
	unsigned int format;
};

static struct dtm_stream *stream;

static void dtm_done(unsigned long data)
{
	struct dtm_stream *s = (struct dtm_stream *)data;

	s->periods++;
}

static irqreturn_t dtm_isr(int irq, void *arg)
{
	struct dtm_stream *s = arg;

	tasklet_hi_schedule(&s->done_tasklet);
	return IRQ_HANDLED;
}

static void dtm_poke(struct dtm_stream *s)
{
	tasklet_schedule(&s->done_tasklet);
}

static void dtm_set_format(struct dtm_stream *s, unsigned int format)
{
	tasklet_kill(&s->done_tasklet);
	s->format = format;
}

static long dtm_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	dtm_set_format(stream, arg);
	return 0;
}

static const struct file_operations dtm_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = dtm_ioctl,
};

static int __init dtm_init(void)
{
	stream = kzalloc(sizeof(*stream), GFP_KERNEL);
	if (!stream)
		return -ENOMEM;
	tasklet_init(&stream->done_tasklet, dtm_done, (unsigned long)stream);
	dtm_poke(stream);
	dtm_set_format(stream, 1);
	(void)dtm_isr;
	(void)dtm_fops;
	return 0;
}

static void __exit dtm_exit(void)
{
	tasklet_kill(&stream->done_tasklet);
	kfree(stream);
}

module_init(dtm_init);
module_exit(dtm_exit);
MODULE_DESCRIPTION("detasklet test module: hi and normal schedules of one item");
MODULE_LICENSE("GPL");
