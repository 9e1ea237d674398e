// SPDX-License-Identifier: GPL-2.0
/*
 * tasklet_unlock_wait() waits for a running callback only; flush_work()
 * also waits for a pending one. Nothing before it here drops a pending
 * run, and nobody decided: the file stays as it is.
 */
#include <linux/interrupt.h>

struct eng {
	struct tasklet_struct submit;
};

static void eng_submit(struct tasklet_struct *t)
{
}

static void eng_park(struct eng *e)
{
	tasklet_unlock_wait(&e->submit);
}

static void eng_init(struct eng *e)
{
	tasklet_setup(&e->submit, eng_submit);
	tasklet_schedule(&e->submit);
}
