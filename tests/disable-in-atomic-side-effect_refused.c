// SPDX-License-Identifier: GPL-2.0
/*
 * tasklet_disable_in_atomic() whose argument calls a function: the
 * replacement (disable_work(E) and a wait on work_busy(E)) would call it
 * twice, so the file stays unconverted.
 */
#include <linux/interrupt.h>

struct card {
	struct tasklet_struct task;
};

struct card *card_next(void);

static void card_task(struct tasklet_struct *t)
{
}

static void card_setup(struct card *c)
{
	tasklet_setup(&c->task, card_task);
}

static void card_quiesce(void)
{
	tasklet_disable_in_atomic(&card_next()->task);
}
