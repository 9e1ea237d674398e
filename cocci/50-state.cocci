// SPDX-License-Identifier: GPL-2.0-only
/// A plain test of TASKLET_STATE_SCHED becomes work_pending(): both say
/// whether a run is pending.
// Confidence: Moderate
// Comments: Any other use of the state bits has no equivalent and stays.
// Options: --no-includes --include-headers

virtual patch

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
