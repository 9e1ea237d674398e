/// The calls on a tasklet, one for one: schedule and hi_schedule become
/// queue_work() on the BH workqueues, kill cancel_work_sync(), disable
/// disable_work_sync(), enable enable_and_queue_work(), unlock_wait flush_work().
// Confidence: High
// Comments: schedule and hi_schedule keep the softirq they run from, except
//  that an item scheduled both ways goes to the highpri queue at every site
//  (a work item is non-reentrant only within one workqueue). kill drops a
//  pending run instead of running it; disable drops a pending run, which
//  enable_and_queue_work() queues again; disable_in_atomic becomes
//  disable_work() and a wait that neither sleeps nor turns interrupts on.
//  With -D facts (make convert) an item is hi-scheduled when the driver
//  says so for the group (DETASKLET_HI_KEYS). Alone, a file that
//  hi-schedules nothing has its schedule and enable calls on system_bh_wq;
//  in a file that hi-schedules some item they are left to the driver.
// Options: --no-includes --include-headers

virtual patch
virtual facts

// tasklet_schedule() goes to the item's one workqueue: system_bh_wq, or
// system_bh_highpri_wq when the driver also hi-schedules that item. The
// normal sites follow the hi ones: same softirq context, same CPU, higher
// priority; the driver writes a note for the commit message.
@schedule depends on patch && facts@
expression E;
@@
tasklet_schedule(E)

@script:python schedule_wq depends on facts@
e << schedule.E;
wq;
@@
import detasklet_cocci
coccinelle.wq = cocci.make_ident(detasklet_cocci.item_wq(e))

@patch_schedule depends on patch && facts@
expression schedule.E;
identifier schedule_wq.wq;
@@
- tasklet_schedule(E)
+ queue_work(wq, E)

@file_hi_schedules depends on patch && !facts@
@@
tasklet_hi_schedule(...)

@patch_schedule_alone depends on patch && !facts && !file_hi_schedules@
expression E;
@@
- tasklet_schedule(E)
+ queue_work(system_bh_wq, E)

// tasklet_disable_in_atomic() is called where sleeping is not allowed, and
// in the tree with interrupts off (pci-hyperv under the irq descriptor
// lock). disable_work_sync() would not do there: it takes the pool lock
// with raw_spin_lock_irq() and turns interrupts on. What the tasklet call
// did, done on the work item: disable_work() (any context: cancels a
// pending run, which enable_and_queue_work() queues again, as for
// tasklet_disable()), then spin until a running callback has returned, as
// tasklet_unlock_spin_wait() did, with its PREEMPT_RT branch (spatch
// prints an added else on its own line: continue keeps checkpatch quiet).
// work_busy() reads "running" under the pool lock with irqsave; a disabled
// item cannot start again, so once it is not running it stays so, and the
// callback's stores are seen through that lock. E is named twice: the
// driver refuses an E with a side effect.
@patch_disable_in_atomic depends on patch@
expression E;
@@
- tasklet_disable_in_atomic(E);
+ disable_work(E);
+ /* wait for a running callback without sleeping, as tasklet_unlock_spin_wait() */
+ while (work_busy(E) & WORK_BUSY_RUNNING) {
+	if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
+		local_bh_disable();
+		local_bh_enable();
+		continue;
+	}
+	cpu_relax();
+ }

@patch_one_for_one depends on patch@
expression E;
@@
(
- tasklet_hi_schedule(E)
+ queue_work(system_bh_highpri_wq, E)
|
- tasklet_kill(E)
+ cancel_work_sync(E)
|
- tasklet_disable_nosync(E)
+ disable_work(E)
|
- tasklet_disable(E)
+ disable_work_sync(E)
|
- tasklet_unlock_wait(E)
+ flush_work(E)
)

// tasklet_enable() re-queues on the workqueue of the item's schedule sites.
@enable depends on patch && facts@
expression E;
@@
tasklet_enable(E)

@script:python enable_wq depends on facts@
e << enable.E;
wq;
@@
import detasklet_cocci
coccinelle.wq = cocci.make_ident(detasklet_cocci.item_wq(e))

@patch_enable depends on patch && facts@
expression enable.E;
identifier enable_wq.wq;
@@
- tasklet_enable(E)
+ enable_and_queue_work(wq, E)

@patch_enable_alone depends on patch && !facts && !file_hi_schedules@
expression E;
@@
- tasklet_enable(E)
+ enable_and_queue_work(system_bh_wq, E)
