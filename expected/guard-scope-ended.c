// SPDX-License-Identifier: GPL-2.0
/*
 * Locks of <linux/cleanup.h> that are not held at the kill: a
 * guard(spinlock) whose block ended before it, and a scoped_guard(mutex)
 * with no braces (megaraid_sas's shape, which spatch parses only with
 * cocci/parsing-hints.h) around a call that may sleep anyway. The file
 * converts.
 */
#include <linux/cleanup.h>
#include <linux/interrupt.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>

struct ctrl {
	struct work_struct isr_tasklet;
	spinlock_t lock;
	struct mutex reset_mutex;
	int pending;
};

int ctrl_get_info(struct ctrl *c);

static void ctrl_isr_tasklet(struct work_struct *work)
{
	struct ctrl *c = from_work(c, work, isr_tasklet);

	c->pending = 0;
}

static int ctrl_init(struct ctrl *c)
{
	int rval;

	scoped_guard(mutex, &c->reset_mutex)
		rval = ctrl_get_info(c);
	if (rval)
		return rval;

	INIT_WORK(&c->isr_tasklet, ctrl_isr_tasklet);
	return 0;
}

static void ctrl_stop(struct ctrl *c)
{
	if (c->pending) {
		guard(spinlock_irqsave)(&c->lock);
		c->pending = 0;
	}
	scoped_guard(mutex, &c->reset_mutex)
		flush_work(&c->isr_tasklet);
}
