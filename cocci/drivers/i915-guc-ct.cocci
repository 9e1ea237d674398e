// SPDX-License-Identifier: GPL-2.0-only
/// i915 GuC: intel_guc_submission_reset_prepare() waits for a run of the CT
/// receive tasklet in progress ("Flush tasklet") by disabling the tasklet
/// and enabling it again at once. tasklet_disable() is a raise of the
/// disable count and then that wait (tasklet_unlock_wait()), and the
/// tasklet_enable() right after takes the count back; a run scheduled in
/// between stays scheduled and runs after, as it does now. So the pair is
/// that wait alone: the point on tasklet_unlock_wait(receive_tasklet) below
/// says why flush_work() replaces it.
// Confidence: High
// Comments: Read on Linux 7.3.4 (the older reference tree has no such
//  flush there, and the rule changes nothing). A per-driver patch: it
//  rewrites one tasklet form into another, which the generic rules
//  convert.
// Files: drivers/gpu/drm/i915/gt/uc/intel_guc_submission.c
// Mapping: tasklet_disable() + tasklet_enable() -> flush_work()
// Options: --no-includes --include-headers

virtual patch

@flush depends on patch@
identifier fn = intel_guc_submission_reset_prepare;
expression T;
@@
fn(...)
{
  <...
- tasklet_disable(T);
- tasklet_enable(T);
+ tasklet_unlock_wait(T);
  ...>
}
