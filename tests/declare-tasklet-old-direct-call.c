// SPDX-License-Identifier: GPL-2.0
/*
 * DECLARE_TASKLET_OLD() whose callback ignores its argument and is also
 * called directly with a constant (a poll thread running the tasklet's
 * work itself): the direct call passes NULL, not a plain integer, to the
 * struct work_struct pointer the callback now takes.
 */
#include <linux/interrupt.h>
#include <linux/kthread.h>

static void poll_tasklet_fn(unsigned long);
static DECLARE_TASKLET_OLD(poll_tasklet, poll_tasklet_fn);

static void poll_tasklet_fn(unsigned long dummy)
{
	pr_debug("poll all queues\n");
}

static void poll_timeout(void)
{
	tasklet_schedule(&poll_tasklet);
}

static int poll_thread(void *data)
{
	while (!kthread_should_stop()) {
		schedule();
		poll_tasklet_fn(0);
	}
	return 0;
}
