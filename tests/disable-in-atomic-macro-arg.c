// SPDX-License-Identifier: GPL-2.0
/*
 * tasklet_disable_in_atomic() on a tasklet reached through a cast macro
 * (eni's ENI_DEV(vcc->dev)->task in eni_send()): the replacement names the
 * argument twice, which is the same since the macro has no side effect.
 */
#include <linux/interrupt.h>

#define CARD_DEV(d) ((struct card *)(d)->priv)

struct port {
	void *priv;
};

struct card {
	struct tasklet_struct task;
	int queued;
};

static void card_task(struct tasklet_struct *t)
{
	struct card *c = from_tasklet(c, t, task);

	c->queued = 0;
}

static void card_setup(struct card *c)
{
	tasklet_setup(&c->task, card_task);
}

static int card_send(struct port *p)
{
	tasklet_disable_in_atomic(&CARD_DEV(p)->task);
	CARD_DEV(p)->queued++;
	tasklet_enable(&CARD_DEV(p)->task);
	return 0;
}
