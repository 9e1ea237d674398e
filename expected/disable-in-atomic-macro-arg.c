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
	struct work_struct task;
	int queued;
};

static void card_task(struct work_struct *work)
{
	struct card *c = from_work(c, work, task);

	c->queued = 0;
}

static void card_setup(struct card *c)
{
	INIT_WORK(&c->task, card_task);
}

static int card_send(struct port *p)
{
	disable_work(&CARD_DEV(p)->task);
	/* wait without sleeping for a running callback to finish */
	while (work_busy(&CARD_DEV(p)->task) & WORK_BUSY_RUNNING) {
		if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
			local_bh_disable();
			local_bh_enable();
			continue;
		}
		cpu_relax();
	}
	CARD_DEV(p)->queued++;
	enable_and_queue_work(system_bh_wq, &CARD_DEV(p)->task);
	return 0;
}
