// SPDX-License-Identifier: GPL-2.0
/*
 * A tasklet user under tools/: a selftest module built against the tree
 * (the BPF selftests' test_kmods), converted like any driver. Its
 * callback runs a hook that a BPF program checks is called in softirq
 * context, which a BH work item keeps.
 */
#include <linux/interrupt.h>
#include <linux/irq_work.h>
#include <linux/module.h>

noinline void testmod_softirq_fn(void) { barrier(); }

/* Tasklet for SoftIRQ context */
static void ctx_check_tasklet_fn(struct tasklet_struct *t)
{
	testmod_softirq_fn();
}

DECLARE_TASKLET(ctx_check_tasklet, ctx_check_tasklet_fn);

static void ctx_check_irq_fn(struct irq_work *work)
{
	tasklet_schedule(&ctx_check_tasklet);
}

static struct irq_work ctx_check_irq = IRQ_WORK_INIT_HARD(ctx_check_irq_fn);

void testmod_trigger_ctx_check(void)
{
	irq_work_queue(&ctx_check_irq);
}

static int testmod_init(void)
{
	return 0;
}

static void testmod_exit(void)
{
	/* Clean up irqwork and tasklet */
	irq_work_sync(&ctx_check_irq);
	tasklet_kill(&ctx_check_tasklet);
}

module_init(testmod_init);
module_exit(testmod_exit);
