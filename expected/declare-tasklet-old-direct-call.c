// SPDX-License-Identifier: GPL-2.0
/*
 * DECLARE_TASKLET_OLD() whose callback ignores its argument and is also
 * called directly with a constant (a poll thread running the tasklet's
 * work itself): the direct call passes NULL, not a plain integer, to the
 * struct work_struct pointer the callback now takes.
 */
#include <linux/interrupt.h>
#include <linux/kthread.h>

static void poll_tasklet_fn(struct work_struct *);
static DECLARE_WORK(poll_tasklet, poll_tasklet_fn);

static void poll_tasklet_fn(struct work_struct *work)
{
	pr_debug("poll all queues\n");
}

static void poll_timeout(void)
{
	queue_work(system_bh_wq, &poll_tasklet);
}

static int poll_thread(void *data)
{
	while (!kthread_should_stop()) {
		schedule();
		poll_tasklet_fn(NULL);
	}
	return 0;
}
