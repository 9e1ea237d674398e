// SPDX-License-Identifier: GPL-2.0-only
/// dccp's open-coded schedule, which takes a socket reference only when it
/// queues the tasklet, becomes queue_work() with the reference taken first
/// and given back when the item was already queued.
// Confidence: High
// Comments: The shape:
//    if (!test_and_set_bit(TASKLET_STATE_SCHED, &t->state)) {
//            sock_hold(sk);
//            __tasklet_schedule(t);
//    }
//  queue_work() returns false exactly when the item was already pending,
//  which is when test_and_set_bit() found SCHED set. So the reference is
//  taken first, before the work can run and drop it, and given back when
//  the item was already queued (that pending run holds its own): the same
//  count of references per run of the callback. Only this exact shape.
//  The workqueue is the item's, as in 40-calls.cocci: alone (no -D facts),
//  system_bh_wq in a file that hi-schedules nothing.
// Options: --no-includes --include-headers

virtual patch
virtual report
virtual facts

@open_coded_schedule depends on patch@
expression T, S;
@@
if (!test_and_set_bit(TASKLET_STATE_SCHED, &T->state)) {
  sock_hold(S);
  __tasklet_schedule(T);
}

@script:python open_coded_wq depends on facts@
t << open_coded_schedule.T;
wq;
@@
import detasklet_cocci
coccinelle.wq = cocci.make_ident(detasklet_cocci.item_wq(t))

@patch_open_coded depends on patch && facts@
expression open_coded_schedule.T, open_coded_schedule.S;
identifier open_coded_wq.wq;
@@
- if (!test_and_set_bit(TASKLET_STATE_SCHED, &T->state)) {
-   sock_hold(S);
-   __tasklet_schedule(T);
- }
+ sock_hold(S);
+ if (!queue_work(wq, T))
+   sock_put(S);

@open_coded_file_hi depends on patch && !facts@
@@
tasklet_hi_schedule(...)

@patch_open_coded_alone depends on patch && !facts && !open_coded_file_hi@
expression open_coded_schedule.T, open_coded_schedule.S;
@@
- if (!test_and_set_bit(TASKLET_STATE_SCHED, &T->state)) {
-   sock_hold(S);
-   __tasklet_schedule(T);
- }
+ sock_hold(S);
+ if (!queue_work(system_bh_wq, T))
+   sock_put(S);

// Report mode (make coccicheck MODE=report, run alone): each place MODE=patch
// would change, and why. make convert runs every mode at once with -D facts,
// so these rules do not run there (!facts): its output is unchanged.

@report_open_coded_hi depends on report && !facts@
@@
tasklet_hi_schedule(...)

@report_open_coded depends on report && !facts && !report_open_coded_hi@
expression T, S;
position p;
@@
if@p (!test_and_set_bit(TASKLET_STATE_SCHED, &T->state)) {
  sock_hold(S);
  __tasklet_schedule(T);
}

@script:python depends on report && !facts@
p << report_open_coded.p;
@@
coccilib.report.print_report(p[0], "open-coded schedule with a socket reference: MODE=patch writes sock_hold() first, then queue_work(system_bh_wq) and sock_put() when the item was already queued (the same references per run)")
