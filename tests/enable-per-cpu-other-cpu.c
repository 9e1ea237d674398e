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
	struct tasklet_struct msg_dpc;
	int msgs;
};

static DEFINE_PER_CPU(struct msg_ctx, msg_ctx);

static void msg_on_dpc(struct tasklet_struct *t)
{
	struct msg_ctx *c = from_tasklet(c, t, msg_dpc);

	c->msgs++;
}

static void msg_isr(void)
{
	tasklet_schedule(&this_cpu_ptr(&msg_ctx)->msg_dpc);
}

static void msg_suspend(void)
{
	struct msg_ctx *c = per_cpu_ptr(&msg_ctx, MSG_CPU);

	tasklet_disable(&c->msg_dpc);
	c->msgs = 0;
	tasklet_enable(&c->msg_dpc);
}

static void msg_flush_cpu(int cpu)
{
	tasklet_disable(&per_cpu_ptr(&msg_ctx, cpu)->msg_dpc);
	per_cpu_ptr(&msg_ctx, cpu)->msgs = 0;
	tasklet_enable(&per_cpu_ptr(&msg_ctx, cpu)->msg_dpc);
}

static void msg_init(int cpu)
{
	tasklet_setup(&per_cpu_ptr(&msg_ctx, cpu)->msg_dpc, msg_on_dpc);
}
