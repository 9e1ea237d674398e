// SPDX-License-Identifier: GPL-2.0
/*
 * detasklet_bh: the BH workqueue half of the detasklet contract, for a kernel
 * that has no tasklets any more (make tasklet-free).
 *
 * detasklet_contract.c drives each tasklet call and its replacement side by
 * side, so it cannot build once the tasklet core is gone.  This suite keeps
 * the workqueue claims the converted drivers rely on, as absolute facts, and
 * adds what the core-removal patch itself must preserve: BH work still runs
 * from the TASKLET_SOFTIRQ vector, highpri BH work from HI_SOFTIRQ, and the
 * order between the two is unchanged.
 *
 * It names no tasklet identifier itself, so that scripts/tasklet-free.sh can
 * require that nothing the build compiles does.
 *
 * Test environment notes as in detasklet_contract.c: UML is uniprocessor;
 * "queued but not run yet" is made with local_bh_disable(); every wait is
 * bounded.
 */

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/bottom_half.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/irqflags.h>
#include <linux/jiffies.h>
#include <linux/kernel_stat.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/workqueue.h>

#define BH_WAIT_MS	1000	/* cap for "it must run" waits */
#define BH_SETTLE_MS	50	/* quiet period for "it must not run" checks */

struct bh_item {
	struct work_struct work;
	struct workqueue_struct *wq;
	atomic_t runs;
	int requeue;			/* queue again from the callback this often */
	bool requeue_ok;
	bool serving_softirq, in_task_ctx, pending_in_cb;
	int cpu, seq;
	unsigned int sleep_ms;		/* system_wq items: sleep in the callback */
	struct completion started;
	unsigned int vec_tasklet, vec_hi;	/* softirq counts seen by the callback */
	struct bh_item *container;	/* from_work() result */
};

static atomic_t bh_seq = ATOMIC_INIT(0);

static void bh_fn(struct work_struct *work)
{
	struct bh_item *it = from_work(it, work, work);
	int cpu = raw_smp_processor_id();

	it->container = it;
	it->serving_softirq = in_serving_softirq();
	it->in_task_ctx = in_task();
	it->pending_in_cb = work_pending(work);
	it->cpu = cpu;
	it->seq = atomic_inc_return(&bh_seq);
	it->vec_tasklet = kstat_softirqs_cpu(TASKLET_SOFTIRQ, cpu);
	it->vec_hi = kstat_softirqs_cpu(HI_SOFTIRQ, cpu);
	complete(&it->started);
	if (it->sleep_ms && in_task())
		msleep(it->sleep_ms);
	if (it->requeue > 0) {
		it->requeue--;
		if (!queue_work(it->wq, work))
			it->requeue_ok = false;
	}
	atomic_inc(&it->runs);
}

static struct bh_item *bh_new(struct kunit *test, struct workqueue_struct *wq)
{
	struct bh_item *it = kunit_kzalloc(test, sizeof(*it), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, it);
	INIT_WORK(&it->work, bh_fn);
	it->wq = wq;
	it->requeue_ok = true;
	it->cpu = -1;
	init_completion(&it->started);
	return it;
}

static void bh_teardown(struct bh_item *it)
{
	WRITE_ONCE(it->requeue, 0);
	cancel_work_sync(&it->work);
}

static void bh_kick(void)
{
	local_bh_disable();
	local_bh_enable();
}

static bool bh_wait(atomic_t *v, int n)
{
	unsigned long end = jiffies + msecs_to_jiffies(BH_WAIT_MS);

	while (atomic_read(v) < n) {
		if (time_after(jiffies, end))
			return false;
		msleep(5);
		bh_kick();
	}
	return true;
}

static void bh_settle(void)
{
	msleep(BH_SETTLE_MS);
	bh_kick();
	msleep(5);
}

/* Queued twice before it runs, it runs once (tasklet_schedule dedup). */
static void bh_queue_twice_runs_once(struct kunit *test)
{
	struct bh_item *it = bh_new(test, system_bh_wq);
	bool q1, q2;

	local_bh_disable();
	q1 = queue_work(system_bh_wq, &it->work);
	q2 = queue_work(system_bh_wq, &it->work);
	KUNIT_EXPECT_TRUE(test, work_pending(&it->work));
	KUNIT_EXPECT_EQ(test, atomic_read(&it->runs), 0);
	local_bh_enable();
	KUNIT_EXPECT_TRUE(test, q1);
	KUNIT_EXPECT_FALSE(test, q2);
	KUNIT_EXPECT_TRUE(test, bh_wait(&it->runs, 1));
	bh_settle();
	KUNIT_EXPECT_EQ(test, atomic_read(&it->runs), 1);
	bh_teardown(it);
}

/* Queued again from its own callback, it runs again. */
static void bh_requeue_from_callback(struct kunit *test)
{
	struct bh_item *it = bh_new(test, system_bh_wq);

	it->requeue = 2;
	KUNIT_EXPECT_TRUE(test, queue_work(system_bh_wq, &it->work));
	KUNIT_EXPECT_TRUE(test, bh_wait(&it->runs, 3));
	bh_settle();
	KUNIT_EXPECT_EQ(test, atomic_read(&it->runs), 3);
	KUNIT_EXPECT_TRUE(test, it->requeue_ok);
	KUNIT_EXPECT_FALSE(test, work_pending(&it->work));
	bh_teardown(it);
}

/*
 * system_bh_wq work runs in softirq context, from the TASKLET_SOFTIRQ vector
 * (its count went up between queueing and the callback); system_wq work runs
 * in a task.  This is what the core-removal patch must keep.
 */
static void bh_runs_from_tasklet_softirq(struct kunit *test)
{
	struct bh_item *bh = bh_new(test, system_bh_wq);
	struct bh_item *th = bh_new(test, system_wq);
	unsigned int before;
	int cpu;

	local_bh_disable();
	cpu = smp_processor_id();
	before = kstat_softirqs_cpu(TASKLET_SOFTIRQ, cpu);
	KUNIT_EXPECT_TRUE(test, queue_work(system_bh_wq, &bh->work));
	local_bh_enable();
	KUNIT_EXPECT_TRUE(test, queue_work(system_wq, &th->work));
	KUNIT_EXPECT_TRUE(test, bh_wait(&bh->runs, 1));
	KUNIT_EXPECT_TRUE(test, bh_wait(&th->runs, 1));

	KUNIT_EXPECT_TRUE(test, bh->serving_softirq);
	KUNIT_EXPECT_FALSE(test, bh->in_task_ctx);
	KUNIT_EXPECT_EQ(test, bh->cpu, cpu);
	KUNIT_EXPECT_GT(test, bh->vec_tasklet, before);
	KUNIT_EXPECT_FALSE(test, th->serving_softirq);
	KUNIT_EXPECT_TRUE(test, th->in_task_ctx);
	kunit_info(test, "TASKLET_SOFTIRQ count %u -> %u when the BH work ran\n",
		   before, bh->vec_tasklet);
	bh_teardown(bh);
	bh_teardown(th);
}

/*
 * system_bh_highpri_wq work runs from HI_SOFTIRQ, so before system_bh_wq
 * work queued earlier (HI_SOFTIRQ is vector 0, TASKLET_SOFTIRQ vector 6).
 */
static void bh_highpri_from_hi_softirq_first(struct kunit *test)
{
	struct bh_item *lo = bh_new(test, system_bh_wq);
	struct bh_item *hi = bh_new(test, system_bh_highpri_wq);
	unsigned int before;
	int cpu;

	local_bh_disable();
	cpu = smp_processor_id();
	before = kstat_softirqs_cpu(HI_SOFTIRQ, cpu);
	KUNIT_EXPECT_TRUE(test, queue_work(system_bh_wq, &lo->work));
	KUNIT_EXPECT_TRUE(test, queue_work(system_bh_highpri_wq, &hi->work));
	local_bh_enable();
	KUNIT_EXPECT_TRUE(test, bh_wait(&lo->runs, 1));
	KUNIT_EXPECT_TRUE(test, bh_wait(&hi->runs, 1));

	KUNIT_EXPECT_TRUE(test, hi->serving_softirq);
	KUNIT_EXPECT_GT(test, hi->vec_hi, before);
	KUNIT_EXPECT_LT(test, hi->seq, lo->seq);
	kunit_info(test, "HI_SOFTIRQ count %u -> %u; order hi=%d lo=%d\n",
		   before, hi->vec_hi, hi->seq, lo->seq);
	bh_teardown(lo);
	bh_teardown(hi);
}

/* from_work() gives the container, also for an array element. */
struct bh_dev {
	int id;
	struct bh_item chan[3];
};

static void bh_from_work_container(struct kunit *test)
{
	struct bh_dev *dev = kunit_kzalloc(test, sizeof(*dev), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, dev);
	for (i = 0; i < 3; i++) {
		INIT_WORK(&dev->chan[i].work, bh_fn);
		dev->chan[i].wq = system_bh_wq;
		dev->chan[i].requeue_ok = true;
		init_completion(&dev->chan[i].started);
		KUNIT_EXPECT_TRUE(test, queue_work(system_bh_wq, &dev->chan[i].work));
	}
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_TRUE(test, bh_wait(&dev->chan[i].runs, 1));
		KUNIT_EXPECT_PTR_EQ(test, dev->chan[i].container, &dev->chan[i]);
	}
	KUNIT_EXPECT_PTR_EQ(test, container_of(dev->chan[1].container, struct bh_dev,
					       chan[1]), dev);
	for (i = 0; i < 3; i++)
		bh_teardown(&dev->chan[i]);
}

/* cancel_work_sync() returns after a running callback finished. */
static void bh_cancel_sync_waits(struct kunit *test)
{
	struct bh_item *th = bh_new(test, system_wq);

	th->sleep_ms = 200;
	KUNIT_EXPECT_TRUE(test, queue_work(system_wq, &th->work));
	KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&th->started,
							  msecs_to_jiffies(2000)), 0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&th->runs), 0);
	KUNIT_EXPECT_FALSE(test, cancel_work_sync(&th->work));
	KUNIT_EXPECT_EQ(test, atomic_read(&th->runs), 1);
	bh_teardown(th);
}

/* cancel_work_sync() drops a pending BH item, legal under local_bh_disable. */
static void bh_cancel_sync_drops_pending(struct kunit *test)
{
	struct bh_item *it = bh_new(test, system_bh_wq);
	bool ret;

	local_bh_disable();
	KUNIT_EXPECT_TRUE(test, queue_work(system_bh_wq, &it->work));
	ret = cancel_work_sync(&it->work);
	local_bh_enable();
	KUNIT_EXPECT_TRUE(test, ret);
	bh_settle();
	KUNIT_EXPECT_EQ(test, atomic_read(&it->runs), 0);
	KUNIT_EXPECT_TRUE(test, queue_work(system_bh_wq, &it->work));
	KUNIT_EXPECT_TRUE(test, bh_wait(&it->runs, 1));
	bh_teardown(it);
}

/* Queueing a disabled item is dropped; enable_work() does not bring it back. */
static void bh_queue_disabled_dropped(struct kunit *test)
{
	struct bh_item *it = bh_new(test, system_bh_wq);

	disable_work_sync(&it->work);
	KUNIT_EXPECT_FALSE(test, queue_work(system_bh_wq, &it->work));
	KUNIT_EXPECT_TRUE(test, enable_work(&it->work));
	bh_settle();
	KUNIT_EXPECT_EQ(test, atomic_read(&it->runs), 0);
	bh_teardown(it);
}

/* The tasklet_enable mapping: disabled, queued, enable_and_queue -> one run. */
static void bh_enable_and_queue_runs_once(struct kunit *test)
{
	struct bh_item *it = bh_new(test, system_bh_wq);

	disable_work_sync(&it->work);
	queue_work(system_bh_wq, &it->work);
	KUNIT_EXPECT_TRUE(test, enable_and_queue_work(system_bh_wq, &it->work));
	KUNIT_EXPECT_TRUE(test, bh_wait(&it->runs, 1));
	bh_settle();
	KUNIT_EXPECT_EQ(test, atomic_read(&it->runs), 1);
	bh_teardown(it);
}

/* disable_work() (nosync) cancels a pending run; nested disable counts. */
static void bh_disable_nosync_nested(struct kunit *test)
{
	struct bh_item *it = bh_new(test, system_bh_wq);

	local_bh_disable();
	KUNIT_EXPECT_TRUE(test, queue_work(system_bh_wq, &it->work));
	KUNIT_EXPECT_TRUE(test, disable_work(&it->work));
	KUNIT_EXPECT_FALSE(test, disable_work(&it->work));
	local_bh_enable();
	KUNIT_EXPECT_FALSE(test, enable_and_queue_work(system_bh_wq, &it->work));
	bh_settle();
	KUNIT_EXPECT_EQ(test, atomic_read(&it->runs), 0);
	KUNIT_EXPECT_TRUE(test, enable_and_queue_work(system_bh_wq, &it->work));
	KUNIT_EXPECT_TRUE(test, bh_wait(&it->runs, 1));
	bh_teardown(it);
}

/* flush_work() waits for a pending item; idle, it returns false. */
static void bh_flush_waits_for_pending(struct kunit *test)
{
	struct bh_item *it = bh_new(test, system_bh_wq);

	KUNIT_EXPECT_FALSE(test, flush_work(&it->work));
	KUNIT_EXPECT_TRUE(test, queue_work(system_bh_wq, &it->work));
	flush_work(&it->work);
	KUNIT_EXPECT_EQ(test, atomic_read(&it->runs), 1);
	KUNIT_EXPECT_FALSE(test, work_pending(&it->work));
	KUNIT_EXPECT_FALSE(test, it->pending_in_cb);
	bh_teardown(it);
}

/* Queued with interrupts off (as from a hard irq handler), it runs once. */
static void bh_queue_irqs_off(struct kunit *test)
{
	struct bh_item *it = bh_new(test, system_bh_wq);
	unsigned long flags;
	bool q;

	local_irq_save(flags);
	q = queue_work(system_bh_wq, &it->work);
	local_irq_restore(flags);
	KUNIT_EXPECT_TRUE(test, q);
	KUNIT_EXPECT_TRUE(test, bh_wait(&it->runs, 1));
	bh_settle();
	KUNIT_EXPECT_EQ(test, atomic_read(&it->runs), 1);
	bh_teardown(it);
}

/*
 * The rewrite of tasklet_disable_in_atomic() (cocci/40-calls.cocci), with
 * interrupts off, on an item that has run (so it has a pool): interrupts
 * stay off, the run pending at the disable is cancelled, and
 * enable_and_queue_work() runs it once.
 */
static void bh_disable_in_atomic_irqs_off(struct kunit *test)
{
	struct bh_item *it = bh_new(test, system_bh_wq);
	unsigned long flags;
	bool off, pending;

	KUNIT_EXPECT_TRUE(test, queue_work(system_bh_wq, &it->work));
	KUNIT_EXPECT_TRUE(test, bh_wait(&it->runs, 1));

	local_irq_save(flags);
	queue_work(system_bh_wq, &it->work);
	disable_work(&it->work);
	while (work_busy(&it->work) & WORK_BUSY_RUNNING) {
		if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
			local_bh_disable();
			local_bh_enable();
			continue;
		}
		cpu_relax();
	}
	off = irqs_disabled();
	pending = work_pending(&it->work);
	enable_and_queue_work(system_bh_wq, &it->work);
	local_irq_restore(flags);

	KUNIT_EXPECT_TRUE(test, off);
	KUNIT_EXPECT_FALSE(test, pending);
	KUNIT_EXPECT_TRUE(test, bh_wait(&it->runs, 2));
	bh_settle();
	KUNIT_EXPECT_EQ(test, atomic_read(&it->runs), 2);
	bh_teardown(it);
}

/* DECLARE_WORK (the DECLARE_TASKLET replacement) starts enabled. */
static atomic_t bh_static_runs = ATOMIC_INIT(0);

static void bh_static_fn(struct work_struct *work)
{
	atomic_inc(&bh_static_runs);
}

static DECLARE_WORK(bh_static_work, bh_static_fn);

static void bh_declare_work_enabled(struct kunit *test)
{
	atomic_set(&bh_static_runs, 0);
	KUNIT_EXPECT_TRUE(test, queue_work(system_bh_wq, &bh_static_work));
	KUNIT_EXPECT_TRUE(test, bh_wait(&bh_static_runs, 1));
	cancel_work_sync(&bh_static_work);
	KUNIT_EXPECT_EQ(test, atomic_read(&bh_static_runs), 1);
}

static struct kunit_case detasklet_bh_cases[] = {
	KUNIT_CASE(bh_queue_twice_runs_once),
	KUNIT_CASE(bh_requeue_from_callback),
	KUNIT_CASE(bh_runs_from_tasklet_softirq),
	KUNIT_CASE(bh_highpri_from_hi_softirq_first),
	KUNIT_CASE(bh_from_work_container),
	KUNIT_CASE(bh_cancel_sync_waits),
	KUNIT_CASE(bh_cancel_sync_drops_pending),
	KUNIT_CASE(bh_queue_disabled_dropped),
	KUNIT_CASE(bh_enable_and_queue_runs_once),
	KUNIT_CASE(bh_disable_nosync_nested),
	KUNIT_CASE(bh_flush_waits_for_pending),
	KUNIT_CASE(bh_queue_irqs_off),
	KUNIT_CASE(bh_declare_work_enabled),
	KUNIT_CASE(bh_disable_in_atomic_irqs_off),
	{}
};

static struct kunit_suite detasklet_bh_suite = {
	.name = "detasklet_bh",
	.test_cases = detasklet_bh_cases,
};

kunit_test_suite(detasklet_bh_suite);

MODULE_DESCRIPTION("BH workqueue contract for a tasklet-free kernel (detasklet)");
MODULE_LICENSE("GPL");
