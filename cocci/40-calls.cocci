// SPDX-License-Identifier: GPL-2.0-only
/// The calls on a tasklet: schedule and hi_schedule become queue_work() on
/// the BH workqueues, disable disable_work_sync(), unlock_wait flush_work();
/// kill and enable become what was chosen for their site.
// Confidence: High
// Comments: schedule and hi_schedule keep the softirq they run from, except
//  that an item scheduled both ways goes to the highpri queue at every site
//  (a work item is non-reentrant only within one workqueue). disable drops
//  a pending run; disable_in_atomic becomes disable_work() and a wait that
//  neither sleeps nor turns interrupts on. With -D facts (make convert) an
//  item is hi-scheduled when the driver says so for the group
//  (DETASKLET_HI_KEYS), and each kill and enable, each schedule whose
//  queue was decided or that sets a tracked flag, and each disable_in_atomic
//  decided to be disable_work_sync(), has been renamed by the driver to a
//  marker that says what it becomes (__detasklet_kill_flush(E),
//  __detasklet_enable_tracked(F, W, E), __detasklet_disable_sync(E), ...;
//  convert/verdicts/sites.py): these rules rewrite the markers. Alone, kill becomes
//  cancel_work_sync() and enable enable_and_queue_work(): check each such
//  site by hand. A file that hi-schedules some item has its schedule and
//  enable calls left.
// Options: --no-includes --include-headers

virtual patch
virtual report
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
// driver refuses an E with a side effect. Where a decision for the driver
// says the core's own wait is allowed there (process context, or
// interrupts on outside hardirq with the item already queued on a BH
// workqueue), the driver renamed the call to __detasklet_disable_sync(E):
// disable_work_sync() waits for a running callback itself, busy-waiting
// for a BH item as the loop does.
@patch_disable_sync_marked depends on patch@
expression E;
@@
- __detasklet_disable_sync(E)
+ disable_work_sync(E)

@patch_disable_in_atomic depends on patch@
expression E;
@@
- tasklet_disable_in_atomic(E);
+ disable_work(E);
+ /* wait without sleeping for a running callback to finish */
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
- tasklet_disable_nosync(E)
+ disable_work(E)
|
- tasklet_disable(E)
+ disable_work_sync(E)
|
- tasklet_unlock_wait(E)
+ flush_work(E)
)

// A queue chosen for the site (a decision on an item queued both ways),
// and the tracked enable's flag, set where the item is queued.
@patch_queue_flagged depends on patch@
expression E, F;
identifier W;
@@
- __detasklet_queue_flagged(F, W, E);
+ set_bit(0, F);
+ queue_work(W, E);

@patch_queue_marked depends on patch@
expression E;
identifier W;
@@
- __detasklet_queue(W, E)
+ queue_work(W, E)

// tasklet_kill() lets a pending run happen, cancel_work_sync() drops it:
// cancel_work_sync() in teardown, flush_work() where the kill is a flush,
// or both in turn; nothing right after a disable that cancelled and waited
// (disabled-first); done only when the item was set up, where its init is
// conditional (cancel_work_sync() of a work item never initialised WARNs).
@patch_kill_marked depends on patch@
expression E;
@@
(
- __detasklet_kill_cancel(E)
+ cancel_work_sync(E)
|
- __detasklet_kill_flush(E)
+ flush_work(E)
)

// A removed kill that leaves one statement in its block (QAT's loop:
// { disable; kill; }) takes the braces with it, as kernel style wants.
// (spatch leaves the header's line break: convert/rewrite/fixups.py
// unbrace_blank() takes the blank line out.)
@patch_kill_removed_block depends on patch@
expression E, E1, E2, E3;
statement S;
@@
(
for (E1; E2; E3)
- {
  S
- __detasklet_kill_removed(E);
- }
|
while (E1)
- {
  S
- __detasklet_kill_removed(E);
- }
|
if (E1)
- {
  S
- __detasklet_kill_removed(E);
- }
)

@patch_kill_marked_statement depends on patch@
expression E, C;
@@
(
- __detasklet_kill_flush_cancel(E);
+ flush_work(E);
+ cancel_work_sync(E);
|
- __detasklet_kill_removed(E);
|
- __detasklet_kill_cancel_if(C, E);
+ if (C)
+	cancel_work_sync(E);
|
- __detasklet_kill_flush_if(C, E);
+ if (C)
+	flush_work(E);
)

@patch_kill_alone depends on patch && !facts@
expression E;
@@
- tasklet_kill(E)
+ cancel_work_sync(E)

// tasklet_enable(): enable_work() (a lost run is harmless there),
// enable_and_queue_work() on the item's queue (a spurious run is), or the
// tracked form, which queues only if the flag says a run was asked for
// while the item was disabled. An item of another CPU is queued there.
// The one enable at init of an item declared disabled, which is now
// declared enabled (convert/verdicts/disabled.py), goes.
@patch_enable_marked depends on patch@
expression E;
identifier W;
@@
(
- __detasklet_enable_work(E)
+ enable_work(E)
|
- __detasklet_enable_queue(W, E)
+ enable_and_queue_work(W, E)
)

@patch_enable_marked_statement depends on patch@
expression E, F, C;
identifier W;
@@
(
- __detasklet_enable_queue_on(C, W, E);
+ if (enable_work(E))
+	queue_work_on(C, W, E);
|
- __detasklet_enable_tracked(F, W, E);
+ if (enable_work(E)) {
+	/* Pairs with the barrier after clear_bit() in the callback. */
+	smp_mb();
+	if (test_bit(0, F))
+		queue_work(W, E);
+ }
|
- __detasklet_enable_tracked_on(F, C, W, E);
+ if (enable_work(E)) {
+	/* Pairs with the barrier after clear_bit() in the callback. */
+	smp_mb();
+	if (test_bit(0, F))
+		queue_work_on(C, W, E);
+ }
|
- __detasklet_enable_removed(E);
)

@patch_enable_alone depends on patch && !facts && !file_hi_schedules@
expression E;
@@
- tasklet_enable(E)
+ enable_and_queue_work(system_bh_wq, E)

// Report mode (make coccicheck MODE=report, run alone): each place MODE=patch
// would change, and why. make convert runs every mode at once with -D facts,
// so these rules do not run there (!facts): its output is unchanged.
// Alone, as MODE=patch alone: a file that hi-schedules some item has its
// schedule and enable calls left (the item's queue is make convert's choice).
@report_file_hi depends on report && !facts@
@@
tasklet_hi_schedule(...)

@report_calls depends on report && !facts@
expression E;
position p;
@@
(
 tasklet_hi_schedule@p(E)
|
 tasklet_disable_nosync@p(E)
|
 tasklet_disable@p(E)
|
 tasklet_disable_in_atomic@p(E)
|
 tasklet_unlock_wait@p(E)
|
 tasklet_kill@p(E)
)

@script:python depends on report && !facts@
p << report_calls.p;
@@
coccilib.report.print_report(p[0], "tasklet call: MODE=patch writes queue_work(system_bh_highpri_wq), disable_work(), disable_work_sync(), disable_work() and a non-sleeping wait, flush_work() or cancel_work_sync() (a kill: check its site by hand; make convert chooses per site)")

@report_schedule depends on report && !facts && !report_file_hi@
expression E, F;
position p;
@@
(
 tasklet_schedule@p(E)
|
 tasklet_enable@p(F)
)

@script:python depends on report && !facts@
p << report_schedule.p;
@@
coccilib.report.print_report(p[0], "tasklet_schedule() or tasklet_enable(): MODE=patch writes queue_work(system_bh_wq) or enable_and_queue_work() (an enable: check its site by hand; make convert chooses per site)")
