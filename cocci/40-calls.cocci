/// The calls on a tasklet, one for one (CONTRACT.md, target bh).
/// schedule and hi_schedule keep the softirq they run from, except that an
/// item scheduled both ways goes to the highpri queue at every site; kill becomes
/// cancel_work_sync (a pending run is dropped, not run: noted in the patch);
/// disable drops a pending run, which enable_and_queue_work() queues again;
/// disable_in_atomic becomes disable_work() and a wait that neither sleeps
/// nor turns interrupts on.
// Confidence: High
// Options: --no-includes --include-headers --macro-file cocci/parsing-hints.h

// tasklet_schedule() goes to the item's one workqueue: system_bh_wq, or
// system_bh_highpri_wq when the driver also hi-schedules that item.
// Non-reentrancy holds only within one workqueue (pitfall 5b), so the
// normal sites follow the hi ones: same softirq context, same CPU, higher
// priority; facts.py writes a note for the commit message.
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

// tasklet_enable() re-queues on the workqueue of the item's schedule sites:
// the highpri BH queue when the driver hi-schedules that item
// (facts computed by the driver, pitfall 5b).
@en@
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
