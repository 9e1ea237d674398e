// SPDX-License-Identifier: GPL-2.0
/*
 * detasklet_bench: what a tasklet costs against its replacements, measured
 * side by side in one boot on the real softirq and workqueue core (make bench,
 * scripts/bench.sh; design and reading in docs/bench.md).
 *
 * Seven mechanisms, each driven through the same item and the same callback:
 *   tasklet     tasklet_schedule()
 *   bh          queue_work(system_bh_wq)
 *   bh_highpri  queue_work(system_bh_highpri_wq)
 *   tasklet_hi  tasklet_hi_schedule()
 *   percpu      queue_work(<per-CPU process-context wq>): system_percpu_wq
 *               when the tree's workqueue.h declares it (scripts/bench.sh
 *               reads it and defines DT_BENCH_HAVE_PERCPU_WQ), else
 *               system_wq; the callback behind the local_bh_disable() guard
 *               that TARGET=thread writes for every moved callback
 *   highpri     queue_work(system_highpri_wq), guarded the same way: where
 *               TARGET=thread queues what tasklet_hi_schedule() scheduled
 *   percpu_noguard  the per-CPU workqueue with the callback unguarded: a
 *               reference only, the tool never writes it
 *
 * Every figure is printed as one KTAP diagnostic line
 *   # <case>: bench: kind=<kind> key=value ...
 * that scripts/detasklet/check/bench.py parses; nothing else is computed here
 * beyond sorting the samples.  Times are ktime_get_ns() (CLOCK_MONOTONIC).
 *
 * The cases are KUNIT_CASE_SLOW: this suite is never part of make kunit.
 * The mechanisms are interleaved in rounds, so a load that changes during
 * the run (another job on the host) hits all of them alike.
 */

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/bottom_half.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/sort.h>
#include <linux/utsname.h>
#include <linux/version.h>
#include <linux/workqueue.h>

#ifdef DT_BENCH_HAVE_PERCPU_WQ
#define DTB_PERCPU_WQ		system_percpu_wq
#define DTB_PERCPU_NAME		"system_percpu_wq"
#else
#define DTB_PERCPU_WQ		system_wq
#define DTB_PERCPU_NAME		"system_wq"
#endif

#ifndef DTB_EVENTS
#define DTB_EVENTS	10000	/* latency samples per mechanism and source */
#endif
#define DTB_ROUNDS	10	/* latency: rounds of DTB_EVENTS / DTB_ROUNDS */
#define DTB_WARMUP	100	/* latency: unrecorded events first */
#define DTB_BATCH	256	/* cost: items scheduled per round */
#define DTB_COST_ROUNDS	21	/* cost: rounds, the median is reported */
#define DTB_WINDOW_MS	200	/* throughput: measuring window */
#define DTB_TPUT_ROUNDS	3	/* throughput: rounds, the median is reported */
#ifndef DTB_WAKEUPS
#define DTB_WAKEUPS	2000	/* FIFO wake-up samples per mechanism */
#endif
#define DTB_PERIOD_US	200	/* FIFO thread: sleep between wake-ups */
#define DTB_BUSY_NS	50000	/* flood: each callback busy-waits this long */
#define DTB_WAIT	(10 * HZ)	/* cap of every wait */
#define DTB_CFS_EVENTS	(DTB_EVENTS / 5)	/* latency under a CFS load: events */
/*
 * Bursts: DTB_BURST_PASS items is what one bh_worker() call runs
 * (BH_WORKER_RESTARTS in kernel/workqueue.c); DTB_BURST_OVER is more than
 * handle_softirqs() runs before it hands the rest to ksoftirqd
 * (MAX_SOFTIRQ_RESTART passes of DTB_BURST_PASS items, kernel/softirq.c).
 */
#define DTB_BURST_PASS	10
#define DTB_BURST_OVER	200
#define DTB_BURST_ROUNDS	100	/* bursts per size and mechanism */

enum dtb_mech {
	DTB_TASKLET, DTB_BH, DTB_BH_HI, DTB_TASKLET_HI, DTB_PERCPU, DTB_HIGHPRI,
	DTB_PERCPU_NOGUARD, DTB_NR
};

static const char *const dtb_name[DTB_NR] = {
	[DTB_TASKLET] = "tasklet",
	[DTB_BH] = "bh",
	[DTB_BH_HI] = "bh_highpri",
	[DTB_TASKLET_HI] = "tasklet_hi",
	[DTB_PERCPU] = "percpu",
	[DTB_HIGHPRI] = "highpri",
	[DTB_PERCPU_NOGUARD] = "percpu_noguard",
};

enum dtb_mode {
	DTB_COUNT,	/* count runs; the target-th one completes the batch */
	DTB_REQUEUE,	/* requeue itself until the deadline */
	DTB_FLOOD,	/* busy-wait DTB_BUSY_NS, requeue until stopped */
};

/* What a group of items reports to the waiting test. */
struct dtb_batch {
	atomic_t count;
	int target;
	u64 t_last;		/* first line of the target-th callback */
	bool last_ksoftirqd;	/* the target-th callback ran in ksoftirqd */
	struct completion done;
};

struct dtb_item {
	enum dtb_mech mech;
	enum dtb_mode mode;
	struct tasklet_struct tasklet;
	struct work_struct work;
	struct dtb_batch *batch;
	u64 t_sched;		/* just before the schedule/queue call */
	u64 deadline;		/* DTB_REQUEUE */
	bool stop;		/* DTB_FLOOD */
	atomic_long_t runs;
	struct completion finished;	/* DTB_REQUEUE, DTB_FLOOD: last run */
};

static void dtb_schedule(struct dtb_item *it)
{
	switch (it->mech) {
	case DTB_TASKLET:
		tasklet_schedule(&it->tasklet);
		break;
	case DTB_TASKLET_HI:
		tasklet_hi_schedule(&it->tasklet);
		break;
	case DTB_BH:
		queue_work(system_bh_wq, &it->work);
		break;
	case DTB_BH_HI:
		queue_work(system_bh_highpri_wq, &it->work);
		break;
	case DTB_HIGHPRI:
		queue_work(system_highpri_wq, &it->work);
		break;
	default:
		queue_work(DTB_PERCPU_WQ, &it->work);
		break;
	}
}

static void dtb_busy(u64 ns)
{
	u64 end = ktime_get_ns() + ns;

	while (ktime_get_ns() < end)
		cpu_relax();
}

static void dtb_body(struct dtb_item *it, u64 now)
{
	struct dtb_batch *b = it->batch;

	switch (it->mode) {
	case DTB_COUNT:
		if (atomic_inc_return(&b->count) == b->target) {
			b->t_last = now;
			b->last_ksoftirqd = current == this_cpu_ksoftirqd();
			complete(&b->done);
		}
		break;
	case DTB_REQUEUE:
		atomic_long_inc(&it->runs);
		if (now < it->deadline)
			dtb_schedule(it);
		else
			complete(&it->finished);
		break;
	case DTB_FLOOD:
		dtb_busy(DTB_BUSY_NS);
		atomic_long_inc(&it->runs);
		if (!READ_ONCE(it->stop))
			dtb_schedule(it);
		else
			complete(&it->finished);
		break;
	}
}

static void dtb_tasklet_fn(struct tasklet_struct *t)
{
	u64 now = ktime_get_ns();
	struct dtb_item *it = from_tasklet(it, t, tasklet);

	dtb_body(it, now);
}

static void dtb_work_fn(struct work_struct *w)
{
	u64 now = ktime_get_ns();
	struct dtb_item *it = from_work(it, w, work);

	dtb_body(it, now);
}

/* The guard TARGET=thread writes around every callback it moves. */
static void dtb_work_fn_bh_off(struct work_struct *w)
{
	local_bh_disable();
	dtb_work_fn(w);
	local_bh_enable();
}

static struct dtb_item *dtb_items(struct kunit *test, enum dtb_mech mech, int n,
				  struct dtb_batch *b)
{
	struct dtb_item *items = kunit_kcalloc(test, n, sizeof(*items), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, items);
	for (i = 0; i < n; i++) {
		items[i].mech = mech;
		items[i].batch = b;
		tasklet_setup(&items[i].tasklet, dtb_tasklet_fn);
		if (mech == DTB_PERCPU || mech == DTB_HIGHPRI)
			INIT_WORK(&items[i].work, dtb_work_fn_bh_off);
		else
			INIT_WORK(&items[i].work, dtb_work_fn);
		init_completion(&items[i].finished);
	}
	return items;
}

static void dtb_quiesce(struct dtb_item *it)
{
	if (it->mech == DTB_TASKLET || it->mech == DTB_TASKLET_HI)
		tasklet_kill(&it->tasklet);
	else
		cancel_work_sync(&it->work);
}

static void dtb_batch_arm(struct dtb_batch *b, int target)
{
	atomic_set(&b->count, 0);
	b->target = target;
	reinit_completion(&b->done);
}

static int dtb_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Sort v[0..n) and print p50, p99 and max as one bench line. */
static void dtb_report(struct kunit *test, const char *what, u64 *v, int n)
{
	if (n <= 0) {
		kunit_info(test, "bench: %s n=0\n", what);
		return;
	}
	sort(v, n, sizeof(*v), dtb_cmp_u64, NULL);
	kunit_info(test, "bench: %s n=%d p50=%llu p99=%llu max=%llu\n", what, n,
		   v[n / 2], v[(n * 99) / 100], v[n - 1]);
}

static const char *dtb_preempt_model(void)
{
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		return "rt";
	if (IS_ENABLED(CONFIG_PREEMPT_DYNAMIC))
		return "dynamic";
	if (IS_ENABLED(CONFIG_PREEMPT))
		return "full";
	if (IS_ENABLED(CONFIG_PREEMPT_LAZY))
		return "lazy";
	if (IS_ENABLED(CONFIG_PREEMPT_VOLUNTARY))
		return "voluntary";
	return "none";
}

/* ---- what was measured on which kernel --------------------------------- */
static void dtb_meta(struct kunit *test)
{
	kunit_info(test, "bench: kind=meta release=%s machine=%s cpus=%u hz=%d preempt=%s percpu_wq=%s events=%d wakeups=%d busy_ns=%d period_us=%d window_ms=%d batch=%d\n",
		   utsname()->release, utsname()->machine, num_online_cpus(), HZ,
		   dtb_preempt_model(), DTB_PERCPU_NAME, DTB_EVENTS, DTB_WAKEUPS,
		   DTB_BUSY_NS, DTB_PERIOD_US, DTB_WINDOW_MS, DTB_BATCH);
}

/* ---- latency: schedule/queue to the first line of the callback --------- */
/*
 * Where the schedule call is made from:
 *   process      the test thread, which then sleeps on a completion
 *   hardirq      an HRTIMER_MODE_REL_HARD hrtimer callback (an interrupt)
 *   softirq      an HRTIMER_MODE_REL_SOFT hrtimer callback (HRTIMER_SOFTIRQ)
 *   lock_bh      the test thread inside a spin_lock_bh() section: the
 *                softirq runs at spin_unlock_bh()
 *   hardirq_cfs  hardirq, while a SCHED_NORMAL thread spins on every CPU
 *                (a competing CFS load), DTB_CFS_EVENTS events
 */
enum dtb_src {
	DTB_SRC_PROCESS, DTB_SRC_HARDIRQ, DTB_SRC_SOFTIRQ, DTB_SRC_LOCK_BH,
	DTB_SRC_HARDIRQ_CFS,
};

static const char *const dtb_src_name[] = {
	[DTB_SRC_PROCESS] = "process",
	[DTB_SRC_HARDIRQ] = "hardirq",
	[DTB_SRC_SOFTIRQ] = "softirq",
	[DTB_SRC_LOCK_BH] = "lock_bh",
	[DTB_SRC_HARDIRQ_CFS] = "hardirq_cfs",
};

static DEFINE_SPINLOCK(dtb_lock);

struct dtb_hrt {
	struct hrtimer timer;
	enum hrtimer_mode mode;
	struct dtb_item *it;
};

static enum hrtimer_restart dtb_hrt_fn(struct hrtimer *t)
{
	struct dtb_hrt *h = container_of(t, struct dtb_hrt, timer);

	h->it->t_sched = ktime_get_ns();
	dtb_schedule(h->it);
	return HRTIMER_NORESTART;
}

static void dtb_hrt_init(struct dtb_hrt *h, enum hrtimer_mode mode)
{
	h->mode = mode;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(&h->timer, dtb_hrt_fn, CLOCK_MONOTONIC, mode);
#else
	hrtimer_init(&h->timer, CLOCK_MONOTONIC, mode);
	h->timer.function = dtb_hrt_fn;
#endif
}

/* One event; the latency in ns, or -1 if the callback never came. */
static s64 dtb_one_event(struct dtb_item *it, struct dtb_hrt *h, bool lock_bh)
{
	dtb_batch_arm(it->batch, 1);
	if (h) {
		h->it = it;
		hrtimer_start(&h->timer, ns_to_ktime(20 * NSEC_PER_USEC), h->mode);
	} else if (lock_bh) {
		spin_lock_bh(&dtb_lock);
		it->t_sched = ktime_get_ns();
		dtb_schedule(it);
		spin_unlock_bh(&dtb_lock);
	} else {
		it->t_sched = ktime_get_ns();
		dtb_schedule(it);
	}
	if (!wait_for_completion_timeout(&it->batch->done, DTB_WAIT))
		return -1;
	return it->batch->t_last - it->t_sched;
}

static int dtb_spin_fn(void *arg);

/* A SCHED_NORMAL (nice 0) thread spinning on each online CPU, or stopped. */
static void dtb_cfs_load(struct kunit *test, struct task_struct **hog, bool on)
{
	int cpu;

	for_each_online_cpu(cpu) {
		if (!on) {
			if (hog[cpu])
				kthread_stop(hog[cpu]);
			hog[cpu] = NULL;
			continue;
		}
		hog[cpu] = kthread_create(dtb_spin_fn, NULL, "dtb_cfs/%d", cpu);
		KUNIT_ASSERT_FALSE(test, IS_ERR(hog[cpu]));
		kthread_bind(hog[cpu], cpu);
		wake_up_process(hog[cpu]);
	}
}

/* Every mechanism, DTB_ROUNDS rounds of events/DTB_ROUNDS each, from src. */
static void dtb_latency(struct kunit *test, enum dtb_src src)
{
	int events = src == DTB_SRC_HARDIRQ_CFS ? DTB_CFS_EVENTS : DTB_EVENTS;
	struct dtb_batch *b = kunit_kzalloc(test, sizeof(*b) * DTB_NR, GFP_KERNEL);
	struct task_struct **hog = kunit_kcalloc(test, nr_cpu_ids, sizeof(*hog), GFP_KERNEL);
	bool lock_bh = src == DTB_SRC_LOCK_BH;
	struct dtb_hrt *h = NULL;
	struct dtb_item *it[DTB_NR];
	u64 *lat[DTB_NR];
	int n[DTB_NR] = {};
	char what[64];
	int m, r, i;
	s64 ns;

	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_NOT_NULL(test, hog);
	if (src != DTB_SRC_PROCESS && !lock_bh) {
		h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, h);
		dtb_hrt_init(h, src == DTB_SRC_SOFTIRQ ? HRTIMER_MODE_REL_SOFT :
			     HRTIMER_MODE_REL_HARD);
	}
	if (src == DTB_SRC_HARDIRQ_CFS)
		dtb_cfs_load(test, hog, true);
	for (m = 0; m < DTB_NR; m++) {
		init_completion(&b[m].done);
		it[m] = dtb_items(test, m, 1, &b[m]);
		lat[m] = kvcalloc(events, sizeof(u64), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, lat[m]);
		for (i = 0; i < DTB_WARMUP; i++)
			dtb_one_event(it[m], h, lock_bh);
	}
	for (r = 0; r < DTB_ROUNDS; r++) {
		for (m = 0; m < DTB_NR; m++) {
			for (i = 0; i < events / DTB_ROUNDS; i++) {
				ns = dtb_one_event(it[m], h, lock_bh);
				if (ns < 0) {
					KUNIT_FAIL(test, "%s from %s: no callback in %d s",
						   dtb_name[m], dtb_src_name[src], DTB_WAIT / HZ);
					goto out;
				}
				lat[m][n[m]++] = ns;
			}
		}
	}
out:
	if (h)
		hrtimer_cancel(&h->timer);
	dtb_cfs_load(test, hog, false);
	for (m = 0; m < DTB_NR; m++) {
		dtb_quiesce(it[m]);
		snprintf(what, sizeof(what), "kind=latency src=%s mech=%s",
			 dtb_src_name[src], dtb_name[m]);
		dtb_report(test, what, lat[m], n[m]);
		kvfree(lat[m]);
	}
}

static void dtb_latency_process(struct kunit *test)
{
	dtb_meta(test);
	dtb_latency(test, DTB_SRC_PROCESS);
}

static void dtb_latency_hardirq(struct kunit *test)
{
	dtb_latency(test, DTB_SRC_HARDIRQ);
}

static void dtb_latency_softirq(struct kunit *test)
{
	dtb_latency(test, DTB_SRC_SOFTIRQ);
}

static void dtb_latency_lock_bh(struct kunit *test)
{
	dtb_latency(test, DTB_SRC_LOCK_BH);
}

static void dtb_latency_hardirq_cfs(struct kunit *test)
{
	dtb_latency(test, DTB_SRC_HARDIRQ_CFS);
}

/* ---- bursts: one pass of the BH worker, and more than a softirq runs --- */
/*
 * n items scheduled with BH disabled, then local_bh_enable(): the time to
 * the first line of the n-th callback, and how often that callback ran in
 * ksoftirqd (handle_softirqs() handed the rest over).
 */
static void dtb_burst_size(struct kunit *test, struct dtb_item **items,
			   struct dtb_batch *b, int n, const char *label)
{
	u64 *lat[DTB_NR];
	int handoff[DTB_NR] = {};
	char what[96];
	int m, r, k;
	u64 t0;

	for (m = 0; m < DTB_NR; m++) {
		lat[m] = kunit_kcalloc(test, DTB_BURST_ROUNDS, sizeof(u64), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, lat[m]);
	}
	for (r = 0; r < DTB_BURST_ROUNDS; r++) {
		for (m = 0; m < DTB_NR; m++) {
			dtb_batch_arm(b, n);
			local_bh_disable();
			t0 = ktime_get_ns();
			for (k = 0; k < n; k++)
				dtb_schedule(&items[m][k]);
			local_bh_enable();
			if (!wait_for_completion_timeout(&b->done, DTB_WAIT)) {
				KUNIT_FAIL(test, "%s burst of %d: %d callbacks ran", dtb_name[m],
					   n, atomic_read(&b->count));
				return;
			}
			lat[m][r] = b->t_last - t0;
			handoff[m] += b->last_ksoftirqd;
		}
	}
	for (m = 0; m < DTB_NR; m++) {
		snprintf(what, sizeof(what), "kind=burst label=%s burst=%d mech=%s ksoftirqd=%d",
			 label, n, dtb_name[m], handoff[m]);
		dtb_report(test, what, lat[m], DTB_BURST_ROUNDS);
	}
}

static void dtb_burst(struct kunit *test)
{
	struct dtb_batch *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	struct dtb_item *items[DTB_NR];
	int m, k;

	KUNIT_ASSERT_NOT_NULL(test, b);
	init_completion(&b->done);
	for (m = 0; m < DTB_NR; m++)
		items[m] = dtb_items(test, m, DTB_BURST_OVER, b);
	dtb_burst_size(test, items, b, DTB_BURST_PASS, "one_pass");
	dtb_burst_size(test, items, b, DTB_BURST_OVER, "over_restarts");
	for (m = 0; m < DTB_NR; m++)
		for (k = 0; k < DTB_BURST_OVER; k++)
			dtb_quiesce(&items[m][k]);
}

/* ---- cost per schedule and per run ------------------------------------- */
static void dtb_cost(struct kunit *test)
{
	struct dtb_batch *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	u64 (*sched)[DTB_COST_ROUNDS] = kunit_kcalloc(test, DTB_NR, sizeof(*sched), GFP_KERNEL);
	u64 (*run)[DTB_COST_ROUNDS] = kunit_kcalloc(test, DTB_NR, sizeof(*run), GFP_KERNEL);
	struct dtb_item *items[DTB_NR];
	u64 t0, t1;
	int m, r, k;

	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_NOT_NULL(test, sched);
	KUNIT_ASSERT_NOT_NULL(test, run);
	init_completion(&b->done);
	for (m = 0; m < DTB_NR; m++)
		items[m] = dtb_items(test, m, DTB_BATCH, b);

	for (r = 0; r < DTB_COST_ROUNDS; r++) {
		for (m = 0; m < DTB_NR; m++) {
			dtb_batch_arm(b, DTB_BATCH);
			/* all schedules first: nothing runs before local_bh_enable() */
			local_bh_disable();
			t0 = ktime_get_ns();
			for (k = 0; k < DTB_BATCH; k++)
				dtb_schedule(&items[m][k]);
			t1 = ktime_get_ns();
			local_bh_enable();
			if (!wait_for_completion_timeout(&b->done, DTB_WAIT)) {
				KUNIT_FAIL(test, "%s: %d of %d callbacks ran", dtb_name[m],
					   atomic_read(&b->count), DTB_BATCH);
				return;
			}
			sched[m][r] = (t1 - t0) / DTB_BATCH;
			run[m][r] = (b->t_last - t1) / DTB_BATCH;
		}
	}
	for (m = 0; m < DTB_NR; m++) {
		sort(sched[m], DTB_COST_ROUNDS, sizeof(u64), dtb_cmp_u64, NULL);
		sort(run[m], DTB_COST_ROUNDS, sizeof(u64), dtb_cmp_u64, NULL);
		kunit_info(test, "bench: kind=cost mech=%s batch=%d rounds=%d sched_ns=%llu run_ns=%llu\n",
			   dtb_name[m], DTB_BATCH, DTB_COST_ROUNDS,
			   sched[m][DTB_COST_ROUNDS / 2], run[m][DTB_COST_ROUNDS / 2]);
		for (k = 0; k < DTB_BATCH; k++)
			dtb_quiesce(&items[m][k]);
	}
}

/* ---- throughput: self-requeueing callbacks in a fixed window ----------- */
static void dtb_schedule_ipi(void *arg)
{
	dtb_schedule(arg);
}

/* Callbacks per second with one item on each CPU of mask, started together. */
static u64 dtb_tput_once(struct kunit *test, enum dtb_mech mech, const struct cpumask *mask)
{
	struct dtb_item *items = dtb_items(test, mech, nr_cpu_ids, NULL);
	u64 deadline, total = 0, t0;
	int cpu;

	t0 = ktime_get_ns();
	deadline = t0 + DTB_WINDOW_MS * NSEC_PER_MSEC;
	for_each_cpu(cpu, mask) {
		items[cpu].mode = DTB_REQUEUE;
		items[cpu].deadline = deadline;
		/* scheduled from that CPU's hardirq (IPI), the same for all */
		smp_call_function_single(cpu, dtb_schedule_ipi, &items[cpu], 1);
	}
	for_each_cpu(cpu, mask) {
		if (!wait_for_completion_timeout(&items[cpu].finished, DTB_WAIT))
			KUNIT_FAIL(test, "%s: cpu %d did not finish its window", dtb_name[mech], cpu);
		dtb_quiesce(&items[cpu]);
		total += atomic_long_read(&items[cpu].runs);
	}
	return div64_u64(total * NSEC_PER_SEC, DTB_WINDOW_MS * NSEC_PER_MSEC);
}

static void dtb_throughput(struct kunit *test)
{
	u64 one[DTB_NR][DTB_TPUT_ROUNDS], all[DTB_NR][DTB_TPUT_ROUNDS];
	int m, r, first = cpumask_first(cpu_online_mask);

	for (r = 0; r < DTB_TPUT_ROUNDS; r++) {
		for (m = 0; m < DTB_NR; m++) {
			one[m][r] = dtb_tput_once(test, m, cpumask_of(first));
			all[m][r] = dtb_tput_once(test, m, cpu_online_mask);
		}
	}
	for (m = 0; m < DTB_NR; m++) {
		sort(one[m], DTB_TPUT_ROUNDS, sizeof(u64), dtb_cmp_u64, NULL);
		sort(all[m], DTB_TPUT_ROUNDS, sizeof(u64), dtb_cmp_u64, NULL);
		kunit_info(test, "bench: kind=throughput mech=%s window_ms=%d cpus=%u one_cpu_per_s=%llu all_cpus_per_s=%llu\n",
			   dtb_name[m], DTB_WINDOW_MS, num_online_cpus(),
			   one[m][DTB_TPUT_ROUNDS / 2], all[m][DTB_TPUT_ROUNDS / 2]);
	}
}

/* ---- SCHED_FIFO wake-up latency under a flood of 50 us callbacks ------- */
struct dtb_waker {
	struct dtb_item *flood;	/* NULL: no flood (the baseline) */
	u64 *lat;
	int n;
	struct completion done;
};

static int dtb_waker_fn(void *arg)
{
	struct dtb_waker *w = arg;
	ktime_t target;
	s64 d;
	int i;

	if (w->flood) {
		dtb_schedule(w->flood);	/* on this CPU: the thread is bound */
		usleep_range(1000, 1100);
	}
	for (i = 0; i < w->n; i++) {
		target = ktime_add_us(ktime_get(), DTB_PERIOD_US);
		set_current_state(TASK_UNINTERRUPTIBLE);
		schedule_hrtimeout(&target, HRTIMER_MODE_ABS);
		d = ktime_to_ns(ktime_sub(ktime_get(), target));
		w->lat[i] = d > 0 ? d : 0;
	}
	if (w->flood)
		WRITE_ONCE(w->flood->stop, true);
	complete(&w->done);
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

/*
 * The baseline's load: a SCHED_NORMAL thread that spins on the CPU, so the
 * FIFO thread's wake-up from "none" has no idle exit in it either (the
 * floods keep the CPU busy too).  It defers nothing, and yields at once to
 * the woken FIFO thread (cond_resched(), for the kernels without
 * preemption).
 */
static int dtb_spin_fn(void *arg)
{
	while (!kthread_should_stop()) {
		cond_resched();
		cpu_relax();
	}
	return 0;
}

/* mech < 0: the baseline, no flood; n wake-ups into lat; the flood's runs. */
static long dtb_wakeup_one(struct kunit *test, int mech, int cpu, u64 *lat, int n)
{
	struct dtb_waker *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct task_struct *t, *spin = NULL;
	long runs = 0;

	KUNIT_ASSERT_NOT_NULL(test, w);
	w->lat = lat;
	w->n = n;
	init_completion(&w->done);
	if (mech >= 0) {
		w->flood = dtb_items(test, mech, 1, NULL);
		w->flood->mode = DTB_FLOOD;
	} else {
		spin = kthread_create(dtb_spin_fn, NULL, "dtb_spin/%d", cpu);
		KUNIT_ASSERT_FALSE(test, IS_ERR(spin));
		kthread_bind(spin, cpu);
		wake_up_process(spin);
	}
	t = kthread_create(dtb_waker_fn, w, "dtb_fifo/%d", cpu);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	kthread_bind(t, cpu);
	sched_set_fifo(t);
	wake_up_process(t);
	if (!wait_for_completion_timeout(&w->done, 60 * HZ)) {
		KUNIT_FAIL(test, "FIFO thread under %s flood did not finish",
			   mech < 0 ? "no" : dtb_name[mech]);
		if (w->flood)
			WRITE_ONCE(w->flood->stop, true);
	}
	kthread_stop(t);
	if (spin)
		kthread_stop(spin);
	if (w->flood) {
		dtb_quiesce(w->flood);
		runs = atomic_long_read(&w->flood->runs);
	}
	return runs;
}

/* Every mechanism (and the baseline) in each of DTB_ROUNDS rounds. */
static void dtb_fifo_wakeup(struct kunit *test)
{
	int cpu = cpumask_first(cpu_online_mask);
	int per = DTB_WAKEUPS / DTB_ROUNDS;
	u64 *lat[DTB_NR + 1];
	long runs[DTB_NR + 1] = {};
	char what[80];
	int m, r;

	kunit_info(test, "bench: kind=wakeup_setup cpu=%d period_us=%d busy_ns=%d rounds=%d baseline=spin\n",
		   cpu, DTB_PERIOD_US, DTB_BUSY_NS, DTB_ROUNDS);
	for (m = 0; m <= DTB_NR; m++) {
		lat[m] = kvcalloc(per * DTB_ROUNDS, sizeof(u64), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, lat[m]);
	}
	/* lat[DTB_NR]: the baseline */
	for (r = 0; r < DTB_ROUNDS; r++)
		for (m = -1; m < DTB_NR; m++) {
			int k = m < 0 ? DTB_NR : m;

			runs[k] += dtb_wakeup_one(test, m, cpu, lat[k] + r * per, per);
		}
	for (m = -1; m < DTB_NR; m++) {
		int k = m < 0 ? DTB_NR : m;

		snprintf(what, sizeof(what), "kind=wakeup mech=%s flood_runs=%ld",
			 m < 0 ? "none" : dtb_name[m], runs[k]);
		dtb_report(test, what, lat[k], per * DTB_ROUNDS);
	}
	for (m = 0; m <= DTB_NR; m++)
		kvfree(lat[m]);
}

static struct kunit_case detasklet_bench_cases[] = {
	KUNIT_CASE_SLOW(dtb_latency_process),
	KUNIT_CASE_SLOW(dtb_latency_hardirq),
	KUNIT_CASE_SLOW(dtb_latency_softirq),
	KUNIT_CASE_SLOW(dtb_latency_lock_bh),
	KUNIT_CASE_SLOW(dtb_latency_hardirq_cfs),
	KUNIT_CASE_SLOW(dtb_cost),
	KUNIT_CASE_SLOW(dtb_burst),
	KUNIT_CASE_SLOW(dtb_throughput),
	KUNIT_CASE_SLOW(dtb_fifo_wakeup),
	{}
};

static struct kunit_suite detasklet_bench_suite = {
	.name = "detasklet_bench",
	.test_cases = detasklet_bench_cases,
};

kunit_test_suite(detasklet_bench_suite);

MODULE_DESCRIPTION("detasklet: tasklet vs BH workqueue benchmark");
MODULE_LICENSE("GPL");
