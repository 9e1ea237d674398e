// SPDX-License-Identifier: GPL-2.0-only
/*
 * dtm_percpu: a test module in the shape of per-CPU message handlers (as
 * hv vmbus has): one tasklet per CPU in per-CPU data, scheduled by its own
 * CPU from a timer, and quiesced from whatever CPU runs the control path:
 * for one CPU given by the caller, and for the fixed control CPU.
 */
#include <linux/module.h>
#include <linux/interrupt.h>
#include <linux/percpu.h>
#include <linux/timer.h>
#include <linux/jiffies.h>

#define DTM_CTRL_CPU 0

struct dtm_cpu {
	struct tasklet_struct msg_bh;
	unsigned int msgs;
};

static DEFINE_PER_CPU(struct dtm_cpu, dtm_cpus);
static struct timer_list dtm_timer;

static void dtm_msg_bh(struct tasklet_struct *t)
{
	struct dtm_cpu *c = from_tasklet(c, t, msg_bh);

	c->msgs++;
}

static void dtm_tick(struct timer_list *t)
{
	tasklet_schedule(&this_cpu_ptr(&dtm_cpus)->msg_bh);
	mod_timer(&dtm_timer, jiffies + HZ);
}

static void dtm_quiesce_cpu(unsigned int cpu)
{
	struct dtm_cpu *c = per_cpu_ptr(&dtm_cpus, cpu);

	tasklet_disable(&c->msg_bh);
	c->msgs = 0;
	tasklet_enable(&c->msg_bh);
}

static void dtm_ctrl_reset(void)
{
	struct dtm_cpu *c;

	c = per_cpu_ptr(&dtm_cpus, DTM_CTRL_CPU);
	tasklet_disable(&c->msg_bh);
	c->msgs = 0;
	tasklet_enable(&c->msg_bh);
}

static int __init dtm_init(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		tasklet_setup(&per_cpu_ptr(&dtm_cpus, cpu)->msg_bh, dtm_msg_bh);
	timer_setup(&dtm_timer, dtm_tick, 0);
	mod_timer(&dtm_timer, jiffies + HZ);
	dtm_ctrl_reset();
	for_each_online_cpu(cpu)
		dtm_quiesce_cpu(cpu);
	return 0;
}

static void __exit dtm_exit(void)
{
	unsigned int cpu;

	timer_delete_sync(&dtm_timer);
	for_each_possible_cpu(cpu)
		tasklet_kill(&per_cpu_ptr(&dtm_cpus, cpu)->msg_bh);
}

module_init(dtm_init);
module_exit(dtm_exit);
MODULE_DESCRIPTION("detasklet test module: per-CPU tasklets enabled from another CPU");
MODULE_LICENSE("GPL");
