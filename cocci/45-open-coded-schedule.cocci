/// dccp's open-coded schedule that takes a socket reference only when it
/// queues the tasklet:
///   if (!test_and_set_bit(TASKLET_STATE_SCHED, &t->state)) {
///           sock_hold(sk);
///           __tasklet_schedule(t);
///   }
/// queue_work() returns false exactly when the item was already pending,
/// which is when test_and_set_bit() found SCHED set. So the reference is
/// taken first, before the work can run and drop it, and given back when
/// the item was already queued (that pending run holds its own): the same
/// count of references per run of the callback. Only this exact shape.
// Confidence: High
// Options: --no-includes --include-headers --macro-file cocci/parsing-hints.h

@oc@
expression T, S;
@@
if (!test_and_set_bit(TASKLET_STATE_SCHED, &T->state)) {
  sock_hold(S);
  __tasklet_schedule(T);
}

@script:python ocwq@
t << oc.T;
wq;
@@
import detasklet_cocci
coccinelle.wq = cocci.make_ident(detasklet_cocci.item_wq(t))

@@
expression oc.T, oc.S;
identifier ocwq.wq;
@@
- if (!test_and_set_bit(TASKLET_STATE_SCHED, &T->state)) {
-   sock_hold(S);
-   __tasklet_schedule(T);
- }
+ sock_hold(S);
+ if (!queue_work(wq, T))
+   sock_put(S);
