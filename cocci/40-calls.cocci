/// The calls on a tasklet, one for one (CONTRACT.md, target bh).
/// schedule and hi_schedule keep the softirq they run from, except that an
/// item scheduled both ways goes to the highpri queue at every site; kill becomes
/// cancel_work_sync (a pending run is dropped, not run: noted in the patch);
/// disable drops a pending run, which enable_and_queue_work() queues again.
// Confidence: High
// Options: --no-includes --include-headers

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
