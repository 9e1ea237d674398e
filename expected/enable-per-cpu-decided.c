// SPDX-License-Identifier: GPL-2.0
/*
 * A per-CPU item whose owner decided enable_and_queue_work: the re-queue
 * goes to the item's own CPU (queue_work_on()), not to the CPU that
 * enables it, as the tasklet would have run where it was scheduled.
 */
#include <linux/interrupt.h>
#include <linux/percpu.h>

#define MSG_CPU 0

struct msg_ctx {
	struct work_struct msg_dpc;
	int msgs;
};

static DEFINE_PER_CPU(struct msg_ctx, msg_ctx);

static void msg_on_dpc(struct work_struct *work)
{
	struct msg_ctx *c = from_work(c, work, msg_dpc);

	c->msgs++;
}

static void msg_isr(void)
{
	queue_work(system_bh_wq, &this_cpu_ptr(&msg_ctx)->msg_dpc);
}

static void msg_suspend(void)
{
	struct msg_ctx *c = per_cpu_ptr(&msg_ctx, MSG_CPU);

	disable_work_sync(&c->msg_dpc);
	c->msgs = 0;
	if (enable_work(&c->msg_dpc))
		queue_work_on(MSG_CPU, system_bh_wq, &c->msg_dpc);
}

static void msg_init(int cpu)
{
	INIT_WORK(&per_cpu_ptr(&msg_ctx, cpu)->msg_dpc, msg_on_dpc);
}
