// SPDX-License-Identifier: GPL-2.0-only
/// A plain test of TASKLET_STATE_SCHED becomes work_pending(): both say
/// whether a run is pending.
// Confidence: Moderate
// Comments: Any other use of the state bits has no equivalent and stays.
// Options: --no-includes --include-headers

virtual patch
virtual report
virtual facts

@patch_state_sched depends on patch@
expression E;
@@
(
- test_bit(TASKLET_STATE_SCHED, &E->state)
+ work_pending(E)
|
- test_bit(TASKLET_STATE_SCHED, &E.state)
+ work_pending(&E)
)

// Report mode (make coccicheck MODE=report, run alone): each place MODE=patch
// would change, and why. make convert runs every mode at once with -D facts,
// so these rules do not run there (!facts): its output is unchanged.

@report_state_sched depends on report && !facts@
expression E;
position p;
@@
(
 test_bit@p(TASKLET_STATE_SCHED, &E->state)
|
 test_bit@p(TASKLET_STATE_SCHED, &E.state)
)

@script:python depends on report && !facts@
p << report_state_sched.p;
@@
coccilib.report.print_report(p[0], "test_bit(TASKLET_STATE_SCHED): MODE=patch writes work_pending(), which also says whether a run is pending")
