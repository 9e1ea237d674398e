// SPDX-License-Identifier: GPL-2.0
/*
 * detasklet_contract: KUnit proof, on the real workqueue core of the kernel it
 * is built into (written against Linux 6.12.118), of the claims the detasklet
 * conversion (tasklet -> BH workqueue) relies on: each mapping row does what
 * the tasklet call did, and each known difference (a pitfall) is exactly
 * the difference the tool accounts for.
 *
 * Every case drives the tasklet API and its workqueue replacement side by
 * side and checks that what a driver can observe is the same, or, for a
 * pitfall, that the documented difference is exactly what happens.
 *
 * Notes on the test environment (UML, uniprocessor):
 *  - A softirq raised from process context runs at the next irq exit, from
 *    ksoftirqd, or at local_bh_enable().  Whenever a case needs "queued but
 *    not run yet", it queues inside local_bh_disable()/local_bh_enable(), so
 *    no irq exit can run it early.  Otherwise it waits with a bounded loop
 *    (dt_wait_runs(), at most DT_WAIT_MS) and never assumes an immediate run.
 *  - No wait is unbounded: completions use wait_for_completion_timeout().
 *  - On UP, a BH callback cannot be observed half-way by another context, so
 *    "cancel_work_sync() waits for a running callback" is shown on a threaded
 *    item (system_wq) whose callback sleeps; the BH half checks the item is
 *    idle and complete on return.
 *
 * Build with -DDETASKLET_CONTRACT_BREAK_ENABLE to map tasklet_enable() to
 * enable_work() instead of enable_and_queue_work(): the case
 * dt_enable_and_queue_restores_dropped_schedule must then fail, which proves
 * the suite catches that wrong mapping.  -DDETASKLET_CONTRACT_BREAK_IN_ATOMIC
 * maps tasklet_disable_in_atomic() to disable_work_sync(): the case
 * dt_disable_in_atomic_irqs_off must then fail.  Each of the other break
 * switches (DETASKLET_CONTRACT_BREAK_<NAME>, listed in tests/kunit/breaks.txt
 * with the one case it must fail; make kunit-breaks runs them all) breaks one
 * idiom the converter emits or one cross-CPU property:
 *   TRACKED_ALWAYS  tracked enable without its flag test (always queues)
 *   TRACKED_PLAIN   tracked enable as plain enable_work()
 *   KILL_FLUSH      tasklet_kill() outside teardown as cancel_work_sync() only
 *   REENTRANT       the second queue of a running item on another workqueue
 *   LOCAL_CPU       a per-CPU item queued with queue_work_on(another CPU)
 *   QUEUE_ON        queue_work_on(cpu, system_bh_wq) without its CPU
 *   CANCEL_WAIT     cancel_work_sync()/disable_work_sync() without the wait
 *   THREAD_GUARD    a TARGET=thread callback without its local_bh_disable()
 * The cross-CPU cases (dt_smp_*) need 2 online CPUs (QEMU x86_64 -smp 2,
 * make kunit-smp); on UML they are reported as skipped, never as passed.
 */

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/bottom_half.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/debug_locks.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/irqflags.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/workqueue.h>

#define DT_WAIT_MS	1000	/* cap for "it must run" waits */
#define DT_SETTLE_MS	50	/* quiet period for "it must not run" checks */

/* The mapping under test for tasklet_enable(). */
#ifdef DETASKLET_CONTRACT_BREAK_ENABLE
#define DT_TASKLET_ENABLE_MAPPING(wq, w)	enable_work(w)
#define DT_MAPPING_NAME				"enable_work (BROKEN on purpose)"
#else
#define DT_TASKLET_ENABLE_MAPPING(wq, w)	enable_and_queue_work(wq, w)
#define DT_MAPPING_NAME				"enable_and_queue_work"
#endif

/*
 * The rewrite of tasklet_disable_in_atomic(w) (cocci/40-calls.cocci), with
 * the wait as a function so a case can count its turns.  Built with
 * -DDETASKLET_CONTRACT_BREAK_IN_ATOMIC it is disable_work_sync() instead,
 * and dt_disable_in_atomic_irqs_off must fail: that call turns interrupts
 * back on.
 */
static void dt_disable_in_atomic(struct work_struct *w)
{
#ifdef DETASKLET_CONTRACT_BREAK_IN_ATOMIC
	disable_work_sync(w);
#else
	disable_work(w);
	while (work_busy(w) & WORK_BUSY_RUNNING) {
		if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
			local_bh_disable();
			local_bh_enable();
			continue;
		}
		cpu_relax();
	}
#endif
}

/* What a callback saw about its execution context. */
struct dt_ctx {
	bool valid;
	bool serving_softirq;
	bool softirq;
	bool interrupt;
	bool task;
	bool hardirq;
	struct work_struct *cur_work;
};

/* One driver-like object holding both a work item and a tasklet. */
struct dt_item {
	int id;				/* something to find through from_*() */
	struct work_struct work;
	struct tasklet_struct tasklet;
	struct workqueue_struct *wq;	/* where the work callback requeues */
	bool tasklet_hi;		/* tasklet requeues with tasklet_hi_schedule */

	atomic_t work_runs;		/* completed work callbacks */
	atomic_t tasklet_runs;		/* completed tasklet callbacks */

	int work_requeue;		/* remaining self-requeues */
	int tasklet_requeue;
	bool work_requeue_ok;
	bool tasklet_requeue_ok;

	struct dt_ctx work_ctx;
	struct dt_ctx tasklet_ctx;
	int work_cpu;
	int tasklet_cpu;
	int work_seq;
	int tasklet_seq;
	bool work_pending_in_cb;
	bool tasklet_sched_in_cb;
	struct dt_item *work_container;	/* from_work() result */
	struct dt_item *tasklet_container;	/* from_tasklet() result */

	unsigned int sleep_ms;		/* threaded callbacks only */
	struct completion work_started;

	bool tracked;			/* tracked-enable idiom (pitfall 5c) */
	unsigned long want;		/* bit 0: a schedule was requested */
};

static atomic_t dt_seq = ATOMIC_INIT(0);

static void dt_record_ctx(struct dt_ctx *c)
{
	c->serving_softirq = in_serving_softirq();
	c->softirq = in_softirq();
	c->interrupt = in_interrupt();
	c->task = in_task();
	c->hardirq = in_hardirq();
	c->cur_work = current_work();
	c->valid = true;
}

static void dt_work_fn(struct work_struct *work)
{
	struct dt_item *it = from_work(it, work, work);

	if (it->tracked) {
		clear_bit(0, &it->want);
		smp_mb__after_atomic();
	}
	it->work_container = it;
	dt_record_ctx(&it->work_ctx);
	it->work_cpu = raw_smp_processor_id();
	it->work_seq = atomic_inc_return(&dt_seq);
	it->work_pending_in_cb = work_pending(work);
	complete(&it->work_started);

	if (it->sleep_ms && in_task())
		msleep(it->sleep_ms);

	if (it->work_requeue > 0) {
		it->work_requeue--;
		if (!queue_work(it->wq, work))
			it->work_requeue_ok = false;
	}
	atomic_inc(&it->work_runs);
}

static void dt_tasklet_fn(struct tasklet_struct *t)
{
	struct dt_item *it = from_tasklet(it, t, tasklet);

	it->tasklet_container = it;
	dt_record_ctx(&it->tasklet_ctx);
	it->tasklet_cpu = raw_smp_processor_id();
	it->tasklet_seq = atomic_inc_return(&dt_seq);
	it->tasklet_sched_in_cb = test_bit(TASKLET_STATE_SCHED, &t->state);

	if (it->tasklet_requeue > 0) {
		it->tasklet_requeue--;
		if (it->tasklet_hi)
			tasklet_hi_schedule(t);
		else
			tasklet_schedule(t);
		if (!test_bit(TASKLET_STATE_SCHED, &t->state))
			it->tasklet_requeue_ok = false;
	}
	atomic_inc(&it->tasklet_runs);
}

static struct dt_item *dt_item_new(struct kunit *test,
				   struct workqueue_struct *wq)
{
	struct dt_item *it = kunit_kzalloc(test, sizeof(*it), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, it);
	/*
	 * One INIT_WORK() site is one lockdep class: the BH items and the
	 * threaded ones get a site each, as no driver's item is both (lockdep,
	 * on for dt_thread_guard_keeps_softirq_exclusion, would otherwise see
	 * one class acquired in softirq and with softirqs on).
	 */
	if (wq == system_bh_wq || wq == system_bh_highpri_wq)
		INIT_WORK(&it->work, dt_work_fn);
	else
		INIT_WORK(&it->work, dt_work_fn);
	tasklet_setup(&it->tasklet, dt_tasklet_fn);
	it->wq = wq;
	atomic_set(&it->work_runs, 0);
	atomic_set(&it->tasklet_runs, 0);
	it->work_requeue_ok = true;
	it->tasklet_requeue_ok = true;
	it->work_cpu = -1;
	it->tasklet_cpu = -1;
	init_completion(&it->work_started);
	return it;
}

/* Leave both halves idle before kunit frees the object. */
static void dt_item_teardown(struct dt_item *it)
{
	WRITE_ONCE(it->work_requeue, 0);
	WRITE_ONCE(it->tasklet_requeue, 0);
	cancel_work_sync(&it->work);
	/* tasklet_kill() on a disabled, scheduled tasklet never returns. */
	while (atomic_read(&it->tasklet.count) > 0)
		tasklet_enable(&it->tasklet);
	tasklet_kill(&it->tasklet);
}

/* Run whatever softirqs are pending on this CPU, from process context. */
static void dt_kick_softirqs(void)
{
	local_bh_disable();
	local_bh_enable();
}

/* Bounded wait until *v >= n; true if reached. */
static bool dt_wait_atomic(atomic_t *v, int n, unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);

	for (;;) {
		if (atomic_read(v) >= n)
			return true;
		if (time_after(jiffies, end))
			return atomic_read(v) >= n;
		msleep(5);
		if (atomic_read(v) < n)
			dt_kick_softirqs();
	}
}

#define dt_wait_runs(v, n) dt_wait_atomic((v), (n), DT_WAIT_MS)

/* Give anything that could still run a fair chance to do so. */
static void dt_settle(void)
{
	msleep(DT_SETTLE_MS);
	dt_kick_softirqs();
	msleep(5);
}

/* 1. Queued twice before it runs, it runs once. */
static void dt_queue_twice_runs_once(struct kunit *test)
{
	struct dt_item *it = dt_item_new(test, system_bh_wq);
	bool q1, q2;

	local_bh_disable();
	q1 = queue_work(system_bh_wq, &it->work);
	q2 = queue_work(system_bh_wq, &it->work);
	KUNIT_EXPECT_TRUE(test, work_pending(&it->work));
	tasklet_schedule(&it->tasklet);
	tasklet_schedule(&it->tasklet);
	KUNIT_EXPECT_TRUE(test, test_bit(TASKLET_STATE_SCHED, &it->tasklet.state));
	KUNIT_EXPECT_EQ(test, atomic_read(&it->work_runs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&it->tasklet_runs), 0);
	local_bh_enable();

	KUNIT_EXPECT_TRUE(test, q1);
	KUNIT_EXPECT_FALSE(test, q2);
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&it->work_runs, 1));
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&it->tasklet_runs, 1));
	dt_settle();
	KUNIT_EXPECT_EQ(test, atomic_read(&it->work_runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&it->tasklet_runs), 1);
	dt_item_teardown(it);
}

/* 2. Queued again from its own callback, it runs again. */
static void dt_requeue_from_callback_runs_again(struct kunit *test)
{
	struct dt_item *it = dt_item_new(test, system_bh_wq);

	it->work_requeue = 2;
	it->tasklet_requeue = 2;
	KUNIT_EXPECT_TRUE(test, queue_work(system_bh_wq, &it->work));
	tasklet_schedule(&it->tasklet);

	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&it->work_runs, 3));
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&it->tasklet_runs, 3));
	dt_settle();
	KUNIT_EXPECT_EQ(test, atomic_read(&it->work_runs), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&it->tasklet_runs), 3);
	KUNIT_EXPECT_TRUE(test, it->work_requeue_ok);
	KUNIT_EXPECT_TRUE(test, it->tasklet_requeue_ok);
	KUNIT_EXPECT_FALSE(test, work_pending(&it->work));
	KUNIT_EXPECT_FALSE(test, test_bit(TASKLET_STATE_SCHED, &it->tasklet.state));
	dt_item_teardown(it);
}

/* 3. system_bh_wq runs in softirq context like a tasklet; system_wq does not. */
static void dt_context_bh_like_tasklet(struct kunit *test)
{
	struct dt_item *bh = dt_item_new(test, system_bh_wq);
	struct dt_item *th = dt_item_new(test, system_wq);

	KUNIT_EXPECT_TRUE(test, queue_work(system_bh_wq, &bh->work));
	tasklet_schedule(&bh->tasklet);
	KUNIT_EXPECT_TRUE(test, queue_work(system_wq, &th->work));
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&bh->work_runs, 1));
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&bh->tasklet_runs, 1));
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&th->work_runs, 1));

	/* tasklet */
	KUNIT_EXPECT_TRUE(test, bh->tasklet_ctx.valid);
	KUNIT_EXPECT_TRUE(test, bh->tasklet_ctx.serving_softirq);
	KUNIT_EXPECT_TRUE(test, bh->tasklet_ctx.softirq);
	KUNIT_EXPECT_TRUE(test, bh->tasklet_ctx.interrupt);
	KUNIT_EXPECT_FALSE(test, bh->tasklet_ctx.task);
	KUNIT_EXPECT_FALSE(test, bh->tasklet_ctx.hardirq);
	KUNIT_EXPECT_NULL(test, bh->tasklet_ctx.cur_work);
	/* BH work: identical */
	KUNIT_EXPECT_TRUE(test, bh->work_ctx.valid);
	KUNIT_EXPECT_EQ(test, bh->work_ctx.serving_softirq, bh->tasklet_ctx.serving_softirq);
	KUNIT_EXPECT_EQ(test, bh->work_ctx.softirq, bh->tasklet_ctx.softirq);
	KUNIT_EXPECT_EQ(test, bh->work_ctx.interrupt, bh->tasklet_ctx.interrupt);
	KUNIT_EXPECT_EQ(test, bh->work_ctx.task, bh->tasklet_ctx.task);
	KUNIT_EXPECT_EQ(test, bh->work_ctx.hardirq, bh->tasklet_ctx.hardirq);
	KUNIT_EXPECT_NULL(test, bh->work_ctx.cur_work);
	/* threaded work (the "thread" target): the opposite */
	KUNIT_EXPECT_TRUE(test, th->work_ctx.valid);
	KUNIT_EXPECT_FALSE(test, th->work_ctx.serving_softirq);
	KUNIT_EXPECT_FALSE(test, th->work_ctx.softirq);
	KUNIT_EXPECT_FALSE(test, th->work_ctx.interrupt);
	KUNIT_EXPECT_TRUE(test, th->work_ctx.task);
	KUNIT_EXPECT_PTR_EQ(test, th->work_ctx.cur_work, &th->work);

	kunit_info(test, "serving_softirq tasklet=%d bh=%d thread=%d; in_task tasklet=%d bh=%d thread=%d\n",
		   bh->tasklet_ctx.serving_softirq, bh->work_ctx.serving_softirq,
		   th->work_ctx.serving_softirq, bh->tasklet_ctx.task,
		   bh->work_ctx.task, th->work_ctx.task);
	dt_item_teardown(bh);
	dt_item_teardown(th);
}

/*
 * 4. system_bh_highpri_wq runs like tasklet_hi_schedule: softirq context, and
 * from HI_SOFTIRQ, i.e. before TASKLET_SOFTIRQ work and tasklets, whatever
 * the queueing order.
 */
static void dt_highpri_like_tasklet_hi(struct kunit *test)
{
	struct dt_item *lo = dt_item_new(test, system_bh_wq);
	struct dt_item *hi = dt_item_new(test, system_bh_highpri_wq);

	local_bh_disable();
	/* reverse of the expected execution order */
	tasklet_schedule(&lo->tasklet);
	KUNIT_EXPECT_TRUE(test, queue_work(system_bh_wq, &lo->work));
	tasklet_hi_schedule(&hi->tasklet);
	KUNIT_EXPECT_TRUE(test, queue_work(system_bh_highpri_wq, &hi->work));
	local_bh_enable();

	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&lo->work_runs, 1));
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&lo->tasklet_runs, 1));
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&hi->work_runs, 1));
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&hi->tasklet_runs, 1));

	KUNIT_EXPECT_TRUE(test, hi->work_ctx.serving_softirq);
	KUNIT_EXPECT_TRUE(test, hi->tasklet_ctx.serving_softirq);
	KUNIT_EXPECT_FALSE(test, hi->work_ctx.task);
	KUNIT_EXPECT_EQ(test, hi->work_ctx.interrupt, hi->tasklet_ctx.interrupt);

	/* HI_SOFTIRQ (bh_highpri work, then hi tasklets) before TASKLET_SOFTIRQ */
	KUNIT_EXPECT_LT(test, hi->work_seq, hi->tasklet_seq);
	KUNIT_EXPECT_LT(test, hi->tasklet_seq, lo->work_seq);
	KUNIT_EXPECT_LT(test, lo->work_seq, lo->tasklet_seq);
	kunit_info(test, "order: bh_highpri=%d hi_tasklet=%d bh=%d tasklet=%d\n",
		   hi->work_seq, hi->tasklet_seq, lo->work_seq, lo->tasklet_seq);
	dt_item_teardown(lo);
	dt_item_teardown(hi);
}

/* 5. from_work() gives the container, as from_tasklet() does. */
struct dt_chan_dev {
	int magic;
	struct dt_item chan[2];
};

static void dt_from_work_gives_container(struct kunit *test)
{
	struct dt_chan_dev *dev = kunit_kzalloc(test, sizeof(*dev), GFP_KERNEL);
	struct dt_item *p;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, dev);
	dev->magic = 0x7a5c;
	for (i = 0; i < 2; i++) {
		p = &dev->chan[i];
		INIT_WORK(&p->work, dt_work_fn);
		tasklet_setup(&p->tasklet, dt_tasklet_fn);
		p->id = 100 + i;
		p->wq = system_bh_wq;
		atomic_set(&p->work_runs, 0);
		atomic_set(&p->tasklet_runs, 0);
		init_completion(&p->work_started);
	}

	/* the macros themselves, outside any callback */
	p = NULL;
	KUNIT_EXPECT_PTR_EQ(test, from_work(p, &dev->chan[1].work, work), &dev->chan[1]);
	KUNIT_EXPECT_PTR_EQ(test, from_tasklet(p, &dev->chan[1].tasklet, tasklet), &dev->chan[1]);

	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_TRUE(test, queue_work(system_bh_wq, &dev->chan[i].work));
		tasklet_schedule(&dev->chan[i].tasklet);
	}
	for (i = 0; i < 2; i++) {
		p = &dev->chan[i];
		KUNIT_EXPECT_TRUE(test, dt_wait_runs(&p->work_runs, 1));
		KUNIT_EXPECT_TRUE(test, dt_wait_runs(&p->tasklet_runs, 1));
		KUNIT_EXPECT_PTR_EQ(test, p->work_container, p);
		KUNIT_EXPECT_PTR_EQ(test, p->tasklet_container, p);
		KUNIT_EXPECT_EQ(test, p->work_container->id, 100 + i);
	}
	/* and from the element back to the device, as a driver would */
	KUNIT_EXPECT_PTR_EQ(test, container_of(dev->chan[0].work_container,
					       struct dt_chan_dev, chan[0]), dev);
	KUNIT_EXPECT_PTR_EQ(test, container_of(dev->chan[1].tasklet_container,
					       struct dt_chan_dev, chan[1]), dev);
	KUNIT_EXPECT_EQ(test, dev->magic, 0x7a5c);
	for (i = 0; i < 2; i++)
		dt_item_teardown(&dev->chan[i]);
}

/*
 * 6. cancel_work_sync() returns only after a running callback finished, as
 * tasklet_kill() does.  Shown on system_wq, where the callback can sleep
 * (on UP a BH callback cannot be interrupted by process context); the BH and
 * tasklet halves check that the item is idle and complete on return.
 */
static void dt_cancel_sync_waits_for_running(struct kunit *test)
{
	struct dt_item *th = dt_item_new(test, system_wq);
	struct dt_item *bh = dt_item_new(test, system_bh_wq);
	unsigned long t0;
	bool ret;

	th->sleep_ms = 200;
	KUNIT_EXPECT_TRUE(test, queue_work(system_wq, &th->work));
	KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&th->work_started,
							  msecs_to_jiffies(2000)), 0UL);
	/* running now, sleeping in the callback, PENDING already clear */
	KUNIT_EXPECT_FALSE(test, work_pending(&th->work));
	KUNIT_EXPECT_EQ(test, atomic_read(&th->work_runs), 0);
	t0 = jiffies;
	ret = cancel_work_sync(&th->work);
	KUNIT_EXPECT_FALSE(test, ret);	/* it was running, not pending */
	KUNIT_EXPECT_EQ(test, atomic_read(&th->work_runs), 1);
	kunit_info(test, "cancel_work_sync waited %u ms for the running callback\n",
		   jiffies_to_msecs(jiffies - t0));

	/* BH item and tasklet: after their run, cancel/kill see them idle */
	KUNIT_EXPECT_TRUE(test, queue_work(system_bh_wq, &bh->work));
	tasklet_schedule(&bh->tasklet);
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&bh->work_runs, 1));
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&bh->tasklet_runs, 1));
	KUNIT_EXPECT_FALSE(test, cancel_work_sync(&bh->work));
	tasklet_kill(&bh->tasklet);
	KUNIT_EXPECT_FALSE(test, work_pending(&bh->work));
	KUNIT_EXPECT_FALSE(test, test_bit(TASKLET_STATE_SCHED, &bh->tasklet.state));
	dt_settle();
	KUNIT_EXPECT_EQ(test, atomic_read(&bh->work_runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&bh->tasklet_runs), 1);
	/* both stay usable */
	KUNIT_EXPECT_TRUE(test, queue_work(system_bh_wq, &bh->work));
	tasklet_schedule(&bh->tasklet);
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&bh->work_runs, 2));
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&bh->tasklet_runs, 2));
	dt_item_teardown(th);
	dt_item_teardown(bh);
}

/*
 * 7. Pitfall (tasklet_kill vs cancel_work_sync): tasklet_kill() lets a
 * scheduled tasklet run before it returns; cancel_work_sync() drops a pending
 * work item.  Also: cancel_work_sync() is legal under local_bh_disable() for
 * an item queued on a BH workqueue.
 */
static void dt_kill_runs_pending_cancel_drops(struct kunit *test)
{
	struct dt_item *it = dt_item_new(test, system_bh_wq);
	bool ret;

	local_bh_disable();
	KUNIT_EXPECT_TRUE(test, queue_work(system_bh_wq, &it->work));
	ret = cancel_work_sync(&it->work);
	local_bh_enable();
	KUNIT_EXPECT_TRUE(test, ret);	/* it was pending */
	KUNIT_EXPECT_FALSE(test, work_pending(&it->work));

	tasklet_schedule(&it->tasklet);
	tasklet_kill(&it->tasklet);	/* waits until the scheduled run happened */
	KUNIT_EXPECT_EQ(test, atomic_read(&it->tasklet_runs), 1);

	dt_settle();
	KUNIT_EXPECT_EQ(test, atomic_read(&it->work_runs), 0);	/* dropped */
	KUNIT_EXPECT_EQ(test, atomic_read(&it->tasklet_runs), 1);
	/* the cancelled item is not disabled: it can be queued again */
	KUNIT_EXPECT_TRUE(test, queue_work(system_bh_wq, &it->work));
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&it->work_runs, 1));
	dt_item_teardown(it);
}

/*
 * 8. Pitfall 1: queueing a disabled work item drops the request
 * (queue_work() returns false, enable_work() does not bring it back); a
 * tasklet scheduled while disabled runs after tasklet_enable().
 */
static void dt_queue_while_disabled_is_dropped(struct kunit *test)
{
	struct dt_item *it = dt_item_new(test, system_bh_wq);

	disable_work_sync(&it->work);
	KUNIT_EXPECT_FALSE(test, queue_work(system_bh_wq, &it->work));
	KUNIT_EXPECT_FALSE(test, work_pending(&it->work));

	tasklet_disable(&it->tasklet);
	tasklet_schedule(&it->tasklet);
	msleep(20);
	dt_kick_softirqs();
	KUNIT_EXPECT_TRUE(test, test_bit(TASKLET_STATE_SCHED, &it->tasklet.state));
	KUNIT_EXPECT_EQ(test, atomic_read(&it->tasklet_runs), 0);
	tasklet_enable(&it->tasklet);
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&it->tasklet_runs, 1));

	KUNIT_EXPECT_TRUE(test, enable_work(&it->work));	/* depth reached 0 */
	dt_settle();
	KUNIT_EXPECT_EQ(test, atomic_read(&it->work_runs), 0);	/* lost */
	KUNIT_EXPECT_EQ(test, atomic_read(&it->tasklet_runs), 1);
	/* enabled again, it queues normally */
	KUNIT_EXPECT_TRUE(test, queue_work(system_bh_wq, &it->work));
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&it->work_runs, 1));
	dt_item_teardown(it);
}

/*
 * 9. The mapping tasklet_enable -> enable_and_queue_work(): a disabled item
 * queued, then enabled, runs exactly once, like the tasklet.  This is the
 * case that fails when the mapping is enable_work()
 * (-DDETASKLET_CONTRACT_BREAK_ENABLE).
 */
static void dt_enable_and_queue_restores_dropped_schedule(struct kunit *test)
{
	struct dt_item *it = dt_item_new(test, system_bh_wq);

	kunit_info(test, "tasklet_enable mapped to %s\n", DT_MAPPING_NAME);

	/* tasklet_disable */
	disable_work_sync(&it->work);
	tasklet_disable(&it->tasklet);
	/* tasklet_schedule while disabled */
	queue_work(system_bh_wq, &it->work);
	tasklet_schedule(&it->tasklet);
	/* tasklet_enable */
	KUNIT_EXPECT_TRUE(test, DT_TASKLET_ENABLE_MAPPING(system_bh_wq, &it->work));
	tasklet_enable(&it->tasklet);

	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&it->tasklet_runs, 1));
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&it->work_runs, 1));
	dt_settle();
	KUNIT_EXPECT_EQ(test, atomic_read(&it->tasklet_runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&it->work_runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&it->work_runs),
			atomic_read(&it->tasklet_runs));
	dt_item_teardown(it);
}

/*
 * 10. Documented difference: enable_and_queue_work() with nothing scheduled
 * runs the callback once (spurious run); the tasklet does not run.  With a
 * nested disable, only the enable that reaches depth 0 queues.
 */
static void dt_enable_and_queue_spurious_run(struct kunit *test)
{
	struct dt_item *it = dt_item_new(test, system_bh_wq);

	disable_work_sync(&it->work);
	disable_work_sync(&it->work);
	tasklet_disable(&it->tasklet);
	tasklet_disable(&it->tasklet);

	KUNIT_EXPECT_FALSE(test, enable_and_queue_work(system_bh_wq, &it->work));
	tasklet_enable(&it->tasklet);
	dt_settle();
	KUNIT_EXPECT_EQ(test, atomic_read(&it->work_runs), 0);

	KUNIT_EXPECT_TRUE(test, enable_and_queue_work(system_bh_wq, &it->work));
	tasklet_enable(&it->tasklet);
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&it->work_runs, 1));
	dt_settle();
	KUNIT_EXPECT_EQ(test, atomic_read(&it->work_runs), 1);	/* spurious */
	KUNIT_EXPECT_EQ(test, atomic_read(&it->tasklet_runs), 0);
	dt_item_teardown(it);
}

/*
 * 11. Pitfall: disable_work() (nosync) cancels a pending run, and
 * enable_work() does not restore it; tasklet_disable_nosync() keeps the
 * scheduled tasklet, which runs after tasklet_enable().
 */
static void dt_disable_nosync_cancels_pending(struct kunit *test)
{
	struct dt_item *it = dt_item_new(test, system_bh_wq);
	bool ret;

	local_bh_disable();
	KUNIT_EXPECT_TRUE(test, queue_work(system_bh_wq, &it->work));
	ret = disable_work(&it->work);
	KUNIT_EXPECT_FALSE(test, work_pending(&it->work));
	tasklet_schedule(&it->tasklet);
	tasklet_disable_nosync(&it->tasklet);
	local_bh_enable();
	KUNIT_EXPECT_TRUE(test, ret);	/* a pending instance was dropped */

	msleep(20);
	dt_kick_softirqs();
	KUNIT_EXPECT_EQ(test, atomic_read(&it->work_runs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&it->tasklet_runs), 0);
	KUNIT_EXPECT_TRUE(test, test_bit(TASKLET_STATE_SCHED, &it->tasklet.state));

	KUNIT_EXPECT_TRUE(test, enable_work(&it->work));
	tasklet_enable(&it->tasklet);
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&it->tasklet_runs, 1));
	dt_settle();
	KUNIT_EXPECT_EQ(test, atomic_read(&it->work_runs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&it->tasklet_runs), 1);
	dt_item_teardown(it);
}

/*
 * 12. flush_work() waits for a pending item; tasklet_unlock_wait() is weaker:
 * it only waits for a running tasklet, not a scheduled one.
 */
static void dt_flush_work_waits_for_pending(struct kunit *test)
{
	struct dt_item *it = dt_item_new(test, system_bh_wq);
	bool sched_after_wait;
	int before;
	bool ret;

	KUNIT_EXPECT_FALSE(test, flush_work(&it->work));	/* idle: false */

	KUNIT_EXPECT_TRUE(test, queue_work(system_bh_wq, &it->work));
	before = atomic_read(&it->work_runs);
	ret = flush_work(&it->work);
	KUNIT_EXPECT_EQ(test, atomic_read(&it->work_runs), 1);
	KUNIT_EXPECT_FALSE(test, work_pending(&it->work));
	/* an irq exit between queue and flush may have run it already */
	if (before == 0)
		kunit_info(test, "flush_work on the pending item returned %d\n", ret);

	local_bh_disable();
	tasklet_schedule(&it->tasklet);
	tasklet_unlock_wait(&it->tasklet);
	sched_after_wait = test_bit(TASKLET_STATE_SCHED, &it->tasklet.state);
	KUNIT_EXPECT_EQ(test, atomic_read(&it->tasklet_runs), 0);
	local_bh_enable();
	KUNIT_EXPECT_TRUE(test, sched_after_wait);	/* returned before the run */
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&it->tasklet_runs, 1));
	dt_item_teardown(it);
}

/*
 * Queue lo (system_bh_wq) and hi (system_bh_highpri_wq) work and tasklets
 * from this CPU, with preemption off; wait for the four runs.  The work goes
 * through dt_queue_local(): -DDETASKLET_CONTRACT_BREAK_LOCAL_CPU sends it
 * to other instead (other < 0: this CPU, i.e. no break on this call).
 */
static bool dt_queue_local(struct workqueue_struct *wq, struct work_struct *w, int other)
{
#ifdef DETASKLET_CONTRACT_BREAK_LOCAL_CPU
	return queue_work_on(other, wq, w);
#else
	return queue_work(wq, w);
#endif
}

static int dt_queue_pair_here(struct kunit *test, struct dt_item *lo,
			      struct dt_item *hi, int other)
{
	int cpu = get_cpu();

	if (other < 0)
		other = cpu;
	KUNIT_EXPECT_TRUE(test, dt_queue_local(system_bh_wq, &lo->work, other));
	KUNIT_EXPECT_TRUE(test, dt_queue_local(system_bh_highpri_wq, &hi->work, other));
	tasklet_schedule(&lo->tasklet);
	tasklet_hi_schedule(&hi->tasklet);
	put_cpu();

	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&lo->work_runs, 1));
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&hi->work_runs, 1));
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&lo->tasklet_runs, 1));
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&hi->tasklet_runs, 1));
	return cpu;
}

static void dt_expect_pair_on(struct kunit *test, struct dt_item *lo,
			      struct dt_item *hi, int cpu)
{
	KUNIT_EXPECT_EQ(test, lo->work_cpu, cpu);
	KUNIT_EXPECT_EQ(test, hi->work_cpu, cpu);
	KUNIT_EXPECT_EQ(test, lo->tasklet_cpu, cpu);
	KUNIT_EXPECT_EQ(test, hi->tasklet_cpu, cpu);
	kunit_info(test, "queued on cpu %d (%u online): bh=%d bh_hi=%d tasklet=%d tasklet_hi=%d\n",
		   cpu, num_online_cpus(), lo->work_cpu, hi->work_cpu,
		   lo->tasklet_cpu, hi->tasklet_cpu);
}

/* 13. The callback runs on the CPU that queued it. */
static void dt_runs_on_queueing_cpu(struct kunit *test)
{
	struct dt_item *lo = dt_item_new(test, system_bh_wq);
	struct dt_item *hi = dt_item_new(test, system_bh_highpri_wq);

	dt_expect_pair_on(test, lo, hi, dt_queue_pair_here(test, lo, hi, -1));
	dt_item_teardown(lo);
	dt_item_teardown(hi);
}

/* 14. work_pending() matches a TASKLET_STATE_SCHED test at every step. */
static void dt_work_pending_matches_sched(struct kunit *test)
{
	struct dt_item *it = dt_item_new(test, system_bh_wq);

#define DT_SAME_STATE() \
	KUNIT_EXPECT_EQ(test, work_pending(&it->work), \
			test_bit(TASKLET_STATE_SCHED, &it->tasklet.state))

	KUNIT_EXPECT_FALSE(test, work_pending(&it->work));
	DT_SAME_STATE();

	local_bh_disable();
	queue_work(system_bh_wq, &it->work);
	tasklet_schedule(&it->tasklet);
	KUNIT_EXPECT_TRUE(test, work_pending(&it->work));
	DT_SAME_STATE();
	local_bh_enable();

	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&it->work_runs, 1));
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&it->tasklet_runs, 1));
	/* both bits are cleared before the callback is called */
	KUNIT_EXPECT_FALSE(test, it->work_pending_in_cb);
	KUNIT_EXPECT_FALSE(test, it->tasklet_sched_in_cb);
	KUNIT_EXPECT_FALSE(test, work_pending(&it->work));
	DT_SAME_STATE();
#undef DT_SAME_STATE
	dt_item_teardown(it);
}

/* 15. DECLARE_WORK starts enabled, like DECLARE_TASKLET. */
static atomic_t dt_static_work_runs = ATOMIC_INIT(0);
static atomic_t dt_static_tasklet_runs = ATOMIC_INIT(0);

static void dt_static_work_fn(struct work_struct *work)
{
	atomic_inc(&dt_static_work_runs);
}

static void dt_static_tasklet_fn(struct tasklet_struct *t)
{
	atomic_inc(&dt_static_tasklet_runs);
}

static DECLARE_WORK(dt_static_work, dt_static_work_fn);
static DECLARE_TASKLET(dt_static_tasklet, dt_static_tasklet_fn);

static void dt_declare_work_starts_enabled(struct kunit *test)
{
	atomic_set(&dt_static_work_runs, 0);
	atomic_set(&dt_static_tasklet_runs, 0);

	KUNIT_EXPECT_EQ(test, atomic_read(&dt_static_tasklet.count), 0);
	KUNIT_EXPECT_FALSE(test, work_pending(&dt_static_work));

	KUNIT_EXPECT_TRUE(test, queue_work(system_bh_wq, &dt_static_work));
	tasklet_schedule(&dt_static_tasklet);
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&dt_static_work_runs, 1));
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&dt_static_tasklet_runs, 1));
	cancel_work_sync(&dt_static_work);
	tasklet_kill(&dt_static_tasklet);
	KUNIT_EXPECT_EQ(test, atomic_read(&dt_static_work_runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&dt_static_tasklet_runs), 1);
}

/* 16. Queued with interrupts disabled, both run exactly once. */
static void dt_queue_with_irqs_disabled(struct kunit *test)
{
	struct dt_item *it = dt_item_new(test, system_bh_wq);
	unsigned long flags;
	bool q;

	local_irq_save(flags);
	q = queue_work(system_bh_wq, &it->work);
	tasklet_schedule(&it->tasklet);
	local_irq_restore(flags);

	KUNIT_EXPECT_TRUE(test, q);
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&it->work_runs, 1));
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&it->tasklet_runs, 1));
	dt_settle();
	KUNIT_EXPECT_EQ(test, atomic_read(&it->work_runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&it->tasklet_runs), 1);
	dt_item_teardown(it);
}

/*
 * 17. Tracked enable (pitfall 5c, CONTRACT-DETAIL 2.3), the idiom the
 * converter emits: the flag is set where the item is queued and cleared
 * first in the callback; on enable_work() returning true, smp_mb() and queue
 * only if the flag is set.  Direction 1 (this case): no schedule is lost,
 * whether it was requested while disabled (A) or pending when disabled (C);
 * the tasklet does the same.  Direction 2 is dt_tracked_enable_no_spurious_run.
 * -DDETASKLET_CONTRACT_BREAK_TRACKED_PLAIN (plain enable_work()) must fail
 * this case only; -DDETASKLET_CONTRACT_BREAK_TRACKED_ALWAYS (no flag test)
 * must fail the other one only.
 */
static void dt_tracked_schedule(struct dt_item *it)
{
	set_bit(0, &it->want);
	queue_work(it->wq, &it->work);
}

static void dt_tracked_enable(struct dt_item *it)
{
#ifdef DETASKLET_CONTRACT_BREAK_TRACKED_PLAIN
	enable_work(&it->work);
#else
	if (enable_work(&it->work)) {
		smp_mb();
#ifndef DETASKLET_CONTRACT_BREAK_TRACKED_ALWAYS
		if (test_bit(0, &it->want))
#endif
			queue_work(it->wq, &it->work);
	}
#endif
}

/* Both halves disabled (tasklet_disable), and enabled through the idiom. */
static void dt_tracked_disable_both(struct dt_item *it)
{
	disable_work_sync(&it->work);
	tasklet_disable(&it->tasklet);
}

static void dt_tracked_enable_both(struct dt_item *it)
{
	dt_tracked_enable(it);
	tasklet_enable(&it->tasklet);
}

/* Both halves ran exactly n times in all, and nothing more comes. */
static void dt_expect_both_runs(struct kunit *test, struct dt_item *it, int n)
{
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&it->work_runs, n));
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&it->tasklet_runs, n));
	dt_settle();
	KUNIT_EXPECT_EQ(test, atomic_read(&it->work_runs), n);
	KUNIT_EXPECT_EQ(test, atomic_read(&it->tasklet_runs), n);
}

static void dt_tracked_enable_idiom(struct kunit *test)
{
	struct dt_item *it = dt_item_new(test, system_bh_wq);

	it->tracked = true;

	/* A: scheduled while disabled -> one run */
	dt_tracked_disable_both(it);
	dt_tracked_schedule(it);
	tasklet_schedule(&it->tasklet);
	dt_tracked_enable_both(it);
	dt_expect_both_runs(test, it, 1);

	/* C: pending when disabled (nosync) -> restored on enable */
	local_bh_disable();
	dt_tracked_schedule(it);
	tasklet_schedule(&it->tasklet);
	KUNIT_EXPECT_TRUE(test, disable_work(&it->work));
	tasklet_disable_nosync(&it->tasklet);
	local_bh_enable();
	dt_tracked_enable_both(it);
	dt_expect_both_runs(test, it, 2);
	dt_item_teardown(it);
}

/*
 * 17b. Tracked enable, direction 2: an enable with nothing scheduled while
 * disabled runs nothing (B), also after a run that cleared the flag (D),
 * where enable_and_queue_work() would run the callback once for nothing;
 * the tasklet does not run either.
 */
static void dt_tracked_enable_no_spurious_run(struct kunit *test)
{
	struct dt_item *it = dt_item_new(test, system_bh_wq);

	it->tracked = true;

	/* B: never scheduled, disabled then enabled -> no run */
	dt_tracked_disable_both(it);
	dt_tracked_enable_both(it);
	dt_settle();
	KUNIT_EXPECT_EQ(test, atomic_read(&it->work_runs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&it->tasklet_runs), 0);

	/* D: one run (the callback clears the flag), then disable/enable -> none */
	dt_tracked_schedule(it);
	tasklet_schedule(&it->tasklet);
	dt_expect_both_runs(test, it, 1);
	dt_tracked_disable_both(it);
	dt_tracked_enable_both(it);
	dt_expect_both_runs(test, it, 1);
	dt_item_teardown(it);
}

/*
 * 17c. tasklet_kill() outside teardown becomes flush_work(); then
 * cancel_work_sync(); (docs/verdicts.md): a run pending at the kill is run
 * before it returns, as tasklet_kill() runs a scheduled tasklet, not
 * dropped.  Repeated, queueing from process context right before the kill,
 * so that the item is pending at the kill in (nearly) every round; the case
 * also checks that this happened at least once.
 * -DDETASKLET_CONTRACT_BREAK_KILL_FLUSH (cancel_work_sync() alone) must fail it.
 */
#define DT_KILL_ROUNDS	20

static void dt_kill_flush_then_cancel(struct work_struct *w)
{
#ifndef DETASKLET_CONTRACT_BREAK_KILL_FLUSH
	flush_work(w);
#endif
	cancel_work_sync(w);
}

static void dt_kill_flush_then_cancel_runs_pending(struct kunit *test)
{
	struct dt_item *it = dt_item_new(test, system_bh_wq);
	int i, pending_at_kill = 0;

	for (i = 0; i < DT_KILL_ROUNDS; i++) {
		queue_work(system_bh_wq, &it->work);
		tasklet_schedule(&it->tasklet);
		if (work_pending(&it->work))
			pending_at_kill++;
		dt_kill_flush_then_cancel(&it->work);
		tasklet_kill(&it->tasklet);
	}
	kunit_info(test, "%d of %d rounds had the item pending at the kill\n",
		   pending_at_kill, DT_KILL_ROUNDS);
	KUNIT_EXPECT_GT(test, pending_at_kill, 0);
	KUNIT_EXPECT_FALSE(test, work_pending(&it->work));
	KUNIT_EXPECT_EQ(test, atomic_read(&it->work_runs), DT_KILL_ROUNDS);
	KUNIT_EXPECT_EQ(test, atomic_read(&it->tasklet_runs), DT_KILL_ROUNDS);
	dt_item_teardown(it);
}

/*
 * 18. tasklet_disable_in_atomic() -> disable_work() and a wait on
 * work_busy() (pitfall 2c).  With interrupts off, on an item that has run
 * before (so it has a pool): the replacement leaves interrupts off, where
 * disable_work_sync() turns them on; the run pending at the disable is
 * cancelled and enable_and_queue_work() queues it again, so both halves
 * run once, as tasklet_disable_in_atomic() + tasklet_enable() do.  On a
 * threaded item whose callback sleeps, work_busy() reports it running
 * until the callback has returned (the predicate the wait loop relies on;
 * on UP the test polls it with msleep(), since a spin would never let the
 * callback finish).
 */
static void dt_disable_in_atomic_irqs_off(struct kunit *test)
{
	struct dt_item *it = dt_item_new(test, system_bh_wq);
	struct dt_item *th = dt_item_new(test, system_wq);
	bool off_after_map, off_after_tasklet, off_after_sync, pending, ret;
	unsigned long flags;
	int polls = 0;

	/* a first run, so that the work item has a pool to lock */
	KUNIT_EXPECT_TRUE(test, queue_work(system_bh_wq, &it->work));
	tasklet_schedule(&it->tasklet);
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&it->work_runs, 1));
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&it->tasklet_runs, 1));

	local_irq_save(flags);
	queue_work(system_bh_wq, &it->work);
	tasklet_schedule(&it->tasklet);
	tasklet_disable_in_atomic(&it->tasklet);
	off_after_tasklet = irqs_disabled();
	dt_disable_in_atomic(&it->work);
	off_after_map = irqs_disabled();
	pending = work_pending(&it->work);
	enable_and_queue_work(system_bh_wq, &it->work);
	tasklet_enable(&it->tasklet);
	local_irq_restore(flags);

	KUNIT_EXPECT_TRUE(test, off_after_tasklet);
	KUNIT_EXPECT_TRUE(test, off_after_map);
	KUNIT_EXPECT_FALSE(test, pending);	/* cancelled by disable_work() */
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&it->work_runs, 2));
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&it->tasklet_runs, 2));
	dt_settle();
	KUNIT_EXPECT_EQ(test, atomic_read(&it->work_runs), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&it->tasklet_runs), 2);

	/* the control: disable_work_sync() returns with interrupts on */
	local_irq_save(flags);
	disable_work_sync(&it->work);
	off_after_sync = irqs_disabled();
	local_irq_disable();
	local_irq_restore(flags);
	KUNIT_EXPECT_FALSE(test, off_after_sync);
	enable_work(&it->work);

	/* running: reported until the callback returns, then never again */
	th->sleep_ms = 100;
	KUNIT_EXPECT_TRUE(test, queue_work(system_wq, &th->work));
	KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&th->work_started,
							  msecs_to_jiffies(2000)), 0UL);
	ret = disable_work(&th->work);
	KUNIT_EXPECT_FALSE(test, ret);		/* running, not pending */
	while ((work_busy(&th->work) & WORK_BUSY_RUNNING) && polls < 400) {
		msleep(5);
		polls++;
	}
	KUNIT_EXPECT_GT(test, polls, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&th->work_runs), 1);
	KUNIT_EXPECT_FALSE(test, queue_work(system_wq, &th->work));	/* disabled */
	dt_settle();
	KUNIT_EXPECT_EQ(test, atomic_read(&th->work_runs), 1);
	enable_work(&th->work);
	dt_item_teardown(th);
	dt_item_teardown(it);
}

/*
 * Cross-CPU cases (2 online CPUs needed; skipped, with the reason, on UP).
 * The test thread pins itself to CPU B and drives a BH item on CPU A.
 */
static bool dt_two_cpus(struct kunit *test, int *a, int *b)
{
	if (num_online_cpus() < 2)
		return false;
	*a = cpumask_first(cpu_online_mask);
	*b = cpumask_next(*a, cpu_online_mask);
	return *b < nr_cpu_ids;
}

#define DT_NEED_TWO_CPUS(test, a, b)						\
	do {									\
		if (!dt_two_cpus(test, a, b))					\
			kunit_skip(test, "needs 2 online CPUs, %u online",	\
				   num_online_cpus());				\
	} while (0)

static void dt_pin(struct kunit *test, int cpu)
{
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cpu)), 0);
	KUNIT_ASSERT_EQ(test, (int)raw_smp_processor_id(), cpu);
}

static void dt_unpin(void)
{
	set_cpus_allowed_ptr(current, cpu_possible_mask);
}

/* A BH item whose callback holds its CPU until released (bounded). */
struct dt_spin {
	struct work_struct work;
	atomic_t started;		/* runs started */
	atomic_t runs;			/* runs finished */
	atomic_t in_cb;			/* runs in progress now */
	atomic_t overlaps;		/* a run started while another ran */
	int cpu[4];			/* CPU of run i */
	bool softirq[4];		/* in_serving_softirq() of run i */
	u64 hold_ns;			/* each run holds its CPU this long... */
	bool release;			/* ...or until this is set */
};

static void dt_spin_fn(struct work_struct *work)
{
	struct dt_spin *s = from_work(s, work, work);
	int idx = atomic_inc_return(&s->started) - 1;
	u64 end = ktime_get_ns() + s->hold_ns;

	if (atomic_inc_return(&s->in_cb) > 1)
		atomic_inc(&s->overlaps);
	if (idx < ARRAY_SIZE(s->cpu)) {
		s->cpu[idx] = raw_smp_processor_id();
		s->softirq[idx] = in_serving_softirq();
	}
	while (!READ_ONCE(s->release) && ktime_get_ns() < end)
		cpu_relax();
	atomic_dec(&s->in_cb);
	atomic_inc(&s->runs);
}

static struct dt_spin *dt_spin_new(struct kunit *test, u64 hold_ns)
{
	struct dt_spin *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	INIT_WORK(&s->work, dt_spin_fn);
	s->hold_ns = hold_ns;
	return s;
}

/* Bounded wait (sleeping) until *v >= n. */
static bool dt_wait_count(atomic_t *v, int n)
{
	unsigned long end = jiffies + msecs_to_jiffies(DT_WAIT_MS);

	while (atomic_read(v) < n) {
		if (time_after(jiffies, end))
			return false;
		usleep_range(100, 200);
	}
	return true;
}

/*
 * 19. Non-reentrancy across CPUs: an item running on CPU A and queued again
 * from CPU B is queued behind the running instance, never run on B at the
 * same time (pitfall 3); a tasklet never runs concurrently with itself.
 * -DDETASKLET_CONTRACT_BREAK_REENTRANT queues the second time on another
 * workqueue (system_bh_highpri_wq, pitfall 5b): the case must then fail.
 */
#ifdef DETASKLET_CONTRACT_BREAK_REENTRANT
#define DT_REQUEUE_WQ	system_bh_highpri_wq
#else
#define DT_REQUEUE_WQ	system_bh_wq
#endif

static void dt_smp_nonreentrant_across_cpus(struct kunit *test)
{
	struct dt_spin *s = dt_spin_new(test, 2 * NSEC_PER_SEC);
	int a, b;
	bool q1, q2;

	DT_NEED_TWO_CPUS(test, &a, &b);
	dt_pin(test, b);
	q1 = queue_work_on(a, system_bh_wq, &s->work);
	KUNIT_EXPECT_TRUE(test, dt_wait_count(&s->started, 1));
	/* running on A, holding it: queue again from B */
	q2 = queue_work(DT_REQUEUE_WQ, &s->work);
	msleep(30);	/* a second instance would start on B meanwhile */
	WRITE_ONCE(s->release, true);
	KUNIT_EXPECT_TRUE(test, dt_wait_count(&s->runs, 2));
	dt_unpin();

	KUNIT_EXPECT_TRUE(test, q1);
	KUNIT_EXPECT_TRUE(test, q2);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->started), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->overlaps), 0);
	KUNIT_EXPECT_EQ(test, s->cpu[0], a);
	KUNIT_EXPECT_EQ(test, s->cpu[1], a);	/* behind the running one, on A */
	kunit_info(test, "run 1 on cpu %d, queued again from cpu %d, run 2 on cpu %d, overlaps %d\n",
		   s->cpu[0], b, s->cpu[1], atomic_read(&s->overlaps));
	cancel_work_sync(&s->work);
}

/*
 * 20. Per-CPU items (one per CPU, each queued on its own CPU, as
 * per_cpu(x, cpu).f users do): the BH work, the highpri BH work and the
 * tasklet run on the CPU that queued them, for every online CPU.
 * -DDETASKLET_CONTRACT_BREAK_LOCAL_CPU queues the work with
 * queue_work_on(another CPU): the case must then fail.
 */
static void dt_smp_percpu_items_run_on_own_cpu(struct kunit *test)
{
	int a, b, cpu, here;

	DT_NEED_TWO_CPUS(test, &a, &b);
	for_each_online_cpu(cpu) {
		struct dt_item *lo = dt_item_new(test, system_bh_wq);
		struct dt_item *hi = dt_item_new(test, system_bh_highpri_wq);

		dt_pin(test, cpu);
		here = dt_queue_pair_here(test, lo, hi, cpu == a ? b : a);
		dt_unpin();
		KUNIT_EXPECT_EQ(test, here, cpu);
		KUNIT_EXPECT_TRUE(test, lo->work_ctx.serving_softirq);
		dt_expect_pair_on(test, lo, hi, cpu);
		dt_item_teardown(lo);
		dt_item_teardown(hi);
	}
}

/*
 * 21. queue_work_on(cpu, system_bh_wq, w) from another CPU runs w on cpu,
 * in softirq context (the per-CPU idiom the converter emits for a tasklet
 * scheduled on a given CPU through smp_call_function*()).  The same for
 * system_bh_highpri_wq.  -DDETASKLET_CONTRACT_BREAK_QUEUE_ON drops the CPU
 * (queue_work()): the case must then fail.
 */
static bool dt_queue_on(int cpu, struct workqueue_struct *wq, struct work_struct *w)
{
#ifdef DETASKLET_CONTRACT_BREAK_QUEUE_ON
	return queue_work(wq, w);
#else
	return queue_work_on(cpu, wq, w);
#endif
}

static void dt_smp_queue_work_on_remote_bh(struct kunit *test)
{
	struct dt_item *lo = dt_item_new(test, system_bh_wq);
	struct dt_item *hi = dt_item_new(test, system_bh_highpri_wq);
	int a, b;

	DT_NEED_TWO_CPUS(test, &a, &b);
	dt_pin(test, b);
	KUNIT_EXPECT_TRUE(test, dt_queue_on(a, system_bh_wq, &lo->work));
	KUNIT_EXPECT_TRUE(test, dt_queue_on(a, system_bh_highpri_wq, &hi->work));
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&lo->work_runs, 1));
	KUNIT_EXPECT_TRUE(test, dt_wait_runs(&hi->work_runs, 1));
	dt_unpin();
	KUNIT_EXPECT_EQ(test, lo->work_cpu, a);
	KUNIT_EXPECT_EQ(test, hi->work_cpu, a);
	KUNIT_EXPECT_TRUE(test, lo->work_ctx.serving_softirq);
	KUNIT_EXPECT_TRUE(test, hi->work_ctx.serving_softirq);
	kunit_info(test, "queued from cpu %d on cpu %d: bh ran on %d, bh_hi on %d\n",
		   b, a, lo->work_cpu, hi->work_cpu);
	dt_item_teardown(lo);
	dt_item_teardown(hi);
}

/*
 * 22. cancel_work_sync() and disable_work_sync() called on CPU B while the
 * BH item runs on CPU A return only after that run finished, as
 * tasklet_kill()/tasklet_disable() wait for a running tasklet.
 * -DDETASKLET_CONTRACT_BREAK_CANCEL_WAIT uses cancel_work()/disable_work()
 * (no wait): the case must then fail.
 */
static void dt_cancel_sync_on(struct work_struct *w)
{
#ifdef DETASKLET_CONTRACT_BREAK_CANCEL_WAIT
	cancel_work(w);
#else
	cancel_work_sync(w);
#endif
}

static void dt_disable_sync_on(struct work_struct *w)
{
#ifdef DETASKLET_CONTRACT_BREAK_CANCEL_WAIT
	disable_work(w);
#else
	disable_work_sync(w);
#endif
}

static void dt_smp_cancel_sync_waits_cross_cpu(struct kunit *test)
{
	struct dt_spin *s = dt_spin_new(test, 30 * NSEC_PER_MSEC);
	int a, b, done_at_cancel, done_at_disable;
	u64 t0, waited_cancel, waited_disable;

	DT_NEED_TWO_CPUS(test, &a, &b);
	dt_pin(test, b);
	KUNIT_EXPECT_TRUE(test, queue_work_on(a, system_bh_wq, &s->work));
	KUNIT_EXPECT_TRUE(test, dt_wait_count(&s->started, 1));
	t0 = ktime_get_ns();
	dt_cancel_sync_on(&s->work);
	done_at_cancel = atomic_read(&s->runs);
	waited_cancel = ktime_get_ns() - t0;

	KUNIT_EXPECT_TRUE(test, queue_work_on(a, system_bh_wq, &s->work));
	KUNIT_EXPECT_TRUE(test, dt_wait_count(&s->started, 2));
	t0 = ktime_get_ns();
	dt_disable_sync_on(&s->work);
	done_at_disable = atomic_read(&s->runs);
	waited_disable = ktime_get_ns() - t0;
	KUNIT_EXPECT_FALSE(test, queue_work(system_bh_wq, &s->work));	/* disabled */
	dt_unpin();

	KUNIT_EXPECT_EQ(test, done_at_cancel, 1);
	KUNIT_EXPECT_EQ(test, done_at_disable, 2);
	KUNIT_EXPECT_EQ(test, s->cpu[0], a);
	KUNIT_EXPECT_EQ(test, s->cpu[1], a);
	kunit_info(test, "on cpu %d, from cpu %d: cancel_work_sync waited %llu us, disable_work_sync %llu us\n",
		   a, b, waited_cancel / 1000, waited_disable / 1000);
	WRITE_ONCE(s->release, true);
	dt_wait_count(&s->runs, 2);
	enable_work(&s->work);
	cancel_work_sync(&s->work);
}

/*
 * TARGET=thread: a tasklet callback moved to a process-context workqueue runs
 * inside a work function of its own, its guard, between local_bh_disable()
 * and local_bh_enable().  Here dt_thread_lock is taken with a plain
 * spin_lock() both by that callback and by softirq code (a BH work item, as
 * another tasklet would be), which was safe while the callback ran in
 * softirq context.  With the guard lockdep sees the lock taken with softirqs
 * off everywhere and stays quiet.  Without it
 * (-DDETASKLET_CONTRACT_BREAK_THREAD_GUARD) it reports the inconsistent
 * {IN-SOFTIRQ-W} -> {SOFTIRQ-ON-W} usage: a softirq that takes the lock on
 * top of the callback, on its CPU, spins forever.  Lockdep turns itself off
 * after a report, so the case reads debug_locks.  It needs
 * CONFIG_PROVE_LOCKING (tests/kunit/.kunitconfig sets it) and skips without.
 */
static DEFINE_SPINLOCK(dt_thread_lock);
static int dt_thread_runs;

static void dt_thread_locked(struct work_struct *work)
{
	spin_lock(&dt_thread_lock);
	dt_thread_runs++;
	spin_unlock(&dt_thread_lock);
}

static void dt_thread_locked_bh_off(struct work_struct *work)
{
#ifndef DETASKLET_CONTRACT_BREAK_THREAD_GUARD
	local_bh_disable();
#endif
	dt_thread_locked(work);
#ifndef DETASKLET_CONTRACT_BREAK_THREAD_GUARD
	local_bh_enable();
#endif
}

static void dt_thread_guard_keeps_softirq_exclusion(struct kunit *test)
{
	struct work_struct bh, thread;

	if (!IS_ENABLED(CONFIG_PROVE_LOCKING))
		kunit_skip(test, "needs CONFIG_PROVE_LOCKING");
	KUNIT_ASSERT_TRUE_MSG(test, debug_locks, "lockdep was off before this case");
	dt_thread_runs = 0;
	INIT_WORK_ONSTACK(&bh, dt_thread_locked);
	INIT_WORK_ONSTACK(&thread, dt_thread_locked_bh_off);
	KUNIT_EXPECT_TRUE(test, queue_work(system_bh_wq, &bh));
	flush_work(&bh);
	KUNIT_EXPECT_TRUE(test, queue_work(system_percpu_wq, &thread));
	flush_work(&thread);
	KUNIT_EXPECT_EQ(test, dt_thread_runs, 2);
	KUNIT_EXPECT_TRUE_MSG(test, debug_locks,
			      "lockdep reported the lock shared with softirq code");
	destroy_work_on_stack(&bh);
	destroy_work_on_stack(&thread);
}

static struct kunit_case detasklet_contract_cases[] = {
	KUNIT_CASE(dt_queue_twice_runs_once),
	KUNIT_CASE(dt_requeue_from_callback_runs_again),
	KUNIT_CASE(dt_context_bh_like_tasklet),
	KUNIT_CASE(dt_highpri_like_tasklet_hi),
	KUNIT_CASE(dt_from_work_gives_container),
	KUNIT_CASE(dt_cancel_sync_waits_for_running),
	KUNIT_CASE(dt_kill_runs_pending_cancel_drops),
	KUNIT_CASE(dt_queue_while_disabled_is_dropped),
	KUNIT_CASE(dt_enable_and_queue_restores_dropped_schedule),
	KUNIT_CASE(dt_enable_and_queue_spurious_run),
	KUNIT_CASE(dt_disable_nosync_cancels_pending),
	KUNIT_CASE(dt_flush_work_waits_for_pending),
	KUNIT_CASE(dt_runs_on_queueing_cpu),
	KUNIT_CASE(dt_work_pending_matches_sched),
	KUNIT_CASE(dt_declare_work_starts_enabled),
	KUNIT_CASE(dt_queue_with_irqs_disabled),
	KUNIT_CASE(dt_tracked_enable_idiom),
	KUNIT_CASE(dt_tracked_enable_no_spurious_run),
	KUNIT_CASE(dt_kill_flush_then_cancel_runs_pending),
	KUNIT_CASE(dt_disable_in_atomic_irqs_off),
	KUNIT_CASE(dt_thread_guard_keeps_softirq_exclusion),
	KUNIT_CASE(dt_smp_nonreentrant_across_cpus),
	KUNIT_CASE(dt_smp_percpu_items_run_on_own_cpu),
	KUNIT_CASE(dt_smp_queue_work_on_remote_bh),
	KUNIT_CASE(dt_smp_cancel_sync_waits_cross_cpu),
	{}
};

static struct kunit_suite detasklet_contract_suite = {
	.name = "detasklet_contract",
	.test_cases = detasklet_contract_cases,
};

kunit_test_suite(detasklet_contract_suite);

MODULE_DESCRIPTION("detasklet: tasklet vs BH workqueue contract tests");
MODULE_LICENSE("GPL");
