/// A plain test of TASKLET_STATE_SCHED is work_pending() (CONTRACT.md R18).
/// Any other use of the state bits has no equivalent and stays.
// Confidence: Moderate
// Options: --no-includes --include-headers --macro-file cocci/parsing-hints.h

@@
expression E;
@@
(
- test_bit(TASKLET_STATE_SCHED, &E->state)
+ work_pending(E)
|
- test_bit(TASKLET_STATE_SCHED, &E.state)
+ work_pending(&E)
)
