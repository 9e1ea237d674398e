// SPDX-License-Identifier: GPL-2.0
/*
 * A per-CPU item disabled and enabled from whatever CPU runs the code,
 * taken with per_cpu_ptr(..., MSG_CPU): with no decision, the tracked
 * enable re-queues it on MSG_CPU (queue_work_on()), where the tasklet ran,
 * not on the calling CPU.
 */
#include <linux/interrupt.h>
#include <linux/percpu.h>

#define MSG_CPU 0

struct msg_ctx {
	struct work_struct msg_dpc;
	unsigned long msg_dpc_queued;
	int msgs;
};

static DEFINE_PER_CPU(struct msg_ctx, msg_ctx);

static void msg_on_dpc(struct work_struct *work)
{
	struct msg_ctx *c = from_work(c, work, msg_dpc);

	clear_bit(0, &c->msg_dpc_queued);
	/* Clear before running; pairs with the barrier of the enable. */
	smp_mb__after_atomic();

	c->msgs++;
}

static void msg_isr(void)
{
	set_bit(0, &this_cpu_ptr(&msg_ctx)->msg_dpc_queued);
	queue_work(system_bh_wq, &this_cpu_ptr(&msg_ctx)->msg_dpc);
}

static void msg_suspend(void)
{
	struct msg_ctx *c = per_cpu_ptr(&msg_ctx, MSG_CPU);

	disable_work_sync(&c->msg_dpc);
	c->msgs = 0;
	if (enable_work(&c->msg_dpc)) {
		/* Pairs with the barrier after clear_bit() in the callback. */
		smp_mb();
		if (test_bit(0, &c->msg_dpc_queued))
			queue_work_on(MSG_CPU, system_bh_wq, &c->msg_dpc);
	}
}

static void msg_flush_cpu(int cpu)
{
	disable_work_sync(&per_cpu_ptr(&msg_ctx, cpu)->msg_dpc);
	per_cpu_ptr(&msg_ctx, cpu)->msgs = 0;
	if (enable_work(&per_cpu_ptr(&msg_ctx, cpu)->msg_dpc)) {
		/* Pairs with the barrier after clear_bit() in the callback. */
		smp_mb();
		if (test_bit(0, &per_cpu_ptr(&msg_ctx, cpu)->msg_dpc_queued))
			queue_work_on(cpu, system_bh_wq,
				      &per_cpu_ptr(&msg_ctx, cpu)->msg_dpc);
	}
}

static void msg_init(int cpu)
{
	INIT_WORK(&per_cpu_ptr(&msg_ctx, cpu)->msg_dpc, msg_on_dpc);
}
