// SPDX-License-Identifier: GPL-2.0
/*
 * An error path that jumps past the disable to the label of the enable:
 * on that path the enable has no disable to undo. Refused, with the goto.
 */
#include <linux/interrupt.h>

struct chan {
	struct tasklet_struct done_bh;
	void *ring;
	int state;
};

static void chan_done(struct tasklet_struct *t)
{
	struct chan *c = from_tasklet(c, t, done_bh);

	c->state = 0;
}

static void chan_irq(struct chan *c)
{
	tasklet_schedule(&c->done_bh);
}

static int chan_resize(struct chan *c, void *ring)
{
	int ret = 0;

	if (!ring) {
		ret = -EINVAL;
		goto out;
	}
	tasklet_disable(&c->done_bh);
	c->ring = ring;
out:
	tasklet_enable(&c->done_bh);
	return ret;
}

static void chan_setup(struct chan *c)
{
	tasklet_setup(&c->done_bh, chan_done);
}
