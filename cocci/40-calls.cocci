/// The calls on a tasklet, one for one where the operation is the same:
/// schedule and hi_schedule keep the softirq they run from (an item
/// scheduled both ways stays on one queue), disable, disable_nosync and
/// unlock_wait map to their work_struct twins. Kill and enable become what
/// was chosen for their site: the driver renames each such call to a
/// marker that says it (__detasklet_kill_flush(E), ...; sites.py), and
/// runs these rules with -D marked. Run alone, kill becomes
/// cancel_work_sync() and enable enable_and_queue_work().
// Confidence: High
// Options: --no-includes --include-headers --macro-file cocci/parsing-hints.h

virtual marked

// tasklet_schedule() goes to the item's one workqueue: system_bh_wq, or
// system_bh_highpri_wq when the driver also hi-schedules that item (a
// work item is non-reentrant only within one workqueue), unless the site
// was decided otherwise. An item whose enable is tracked also gets its
// flag set where it is queued.
@sc@
expression E;
@@
tasklet_schedule(E)

@script:python scwq@
e << sc.E;
wq;
@@
import detasklet_cocci
coccinelle.wq = cocci.make_ident(detasklet_cocci.item_wq(e))

@@
expression sc.E;
identifier scwq.wq;
@@
- tasklet_schedule(E)
+ queue_work(wq, E)

// A queue chosen for the site (a decision on an item queued both ways),
// and the tracked enable's flag, set where the item is queued.
@@
expression E, F;
identifier W;
@@
- __detasklet_queue_flagged(F, W, E);
+ set_bit(0, F);
+ queue_work(W, E);

@@
expression E;
identifier W;
@@
- __detasklet_queue(W, E)
+ queue_work(W, E)

// tasklet_disable_in_atomic() is called where sleeping is not allowed, and
// in the tree with interrupts off (pci-hyperv under the irq descriptor
// lock). disable_work_sync() would not do there: it takes the pool lock
// with raw_spin_lock_irq() and turns interrupts on (pitfall 2c). What the
// tasklet call did, done on the work item: disable_work() (any context:
// cancels a pending run, which enable_and_queue_work() queues again, as
// for tasklet_disable()), then spin until a running callback has returned,
// as tasklet_unlock_spin_wait() did, with its PREEMPT_RT branch (spatch
// prints an added else on its own line: continue keeps checkpatch quiet).
// work_busy() reads "running" under the pool lock with irqsave; a disabled
// item cannot start again, so once it is not running it stays so, and the
// callback's stores are seen through that lock. facts.py refuses an E with
// a side effect (the new code names it twice).
@@
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

@@
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

// tasklet_kill() lets a pending run happen, cancel_work_sync() drops it:
// each site becomes what was chosen for it (cancel_work_sync() in
// teardown, flush_work() where the kill is a flush, or both).
@@
expression E;
@@
(
- __detasklet_kill_cancel(E)
+ cancel_work_sync(E)
|
- __detasklet_kill_flush(E)
+ flush_work(E)
)

@@
expression E;
@@
- __detasklet_kill_flush_cancel(E);
+ flush_work(E);
+ cancel_work_sync(E);

// A kill done only when the item was set up (its init is conditional):
// cancel_work_sync() of a work item never initialised WARNs, where
// tasklet_kill() of a zeroed tasklet did nothing.
@@
expression E, C;
@@
(
- __detasklet_kill_cancel_if(C, E);
+ if (C)
+	cancel_work_sync(E);
|
- __detasklet_kill_flush_if(C, E);
+ if (C)
+	flush_work(E);
)

@depends on !marked@
expression E;
@@
- tasklet_kill(E)
+ cancel_work_sync(E)

// tasklet_enable(): enable_work() (a lost run is harmless there),
// enable_and_queue_work() on the item's queue (a spurious run is), or the
// tracked form, which queues only if the flag says a run was asked for
// while the item was disabled. An item of another CPU is queued there.
@@
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

@@
expression E, C;
identifier W;
@@
- __detasklet_enable_queue_on(C, W, E);
+ if (enable_work(E))
+	queue_work_on(C, W, E);

@@
expression E, F;
identifier W;
@@
- __detasklet_enable_tracked(F, W, E);
+ if (enable_work(E)) {
+	smp_mb();
+	if (test_bit(0, F))
+		queue_work(W, E);
+ }

@@
expression E, F, C;
identifier W;
@@
- __detasklet_enable_tracked_on(F, C, W, E);
+ if (enable_work(E)) {
+	smp_mb();
+	if (test_bit(0, F))
+		queue_work_on(C, W, E);
+ }

@en depends on !marked@
expression E;
@@
tasklet_enable(E)

@script:python enwq@
e << en.E;
wq;
@@
import detasklet_cocci
coccinelle.wq = cocci.make_ident(detasklet_cocci.item_wq(e))

@@
expression en.E;
identifier enwq.wq;
@@
- tasklet_enable(E)
+ enable_and_queue_work(wq, E)
