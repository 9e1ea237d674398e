// SPDX-License-Identifier: GPL-2.0-only
/// struct tasklet_struct becomes struct work_struct wherever a type is written
/// (fields, variables, pointers, parameters, sizeof); a cast of a void * (an
/// interrupt cookie) to it is dropped, since a void * needs none.
// Confidence: High
// Comments: Runs last, so the rules before it still see the tasklet types.
// Options: --no-includes --include-headers

virtual patch
virtual report
virtual facts

@patch_void_cast depends on patch@
void *e;
@@
- (struct tasklet_struct *)e
+ e

@patch_type depends on patch@
@@
- struct tasklet_struct
+ struct work_struct

// Report mode (make coccicheck MODE=report, run alone): each place MODE=patch
// would change, and why. make convert runs every mode at once with -D facts,
// so these rules do not run there (!facts): its output is unchanged.

@report_type depends on report && !facts@
position p;
@@
 struct tasklet_struct@p

@report_void_cast depends on report && !facts@
void *e;
position p;
@@
 (struct tasklet_struct *)e@p

@script:python depends on report && !facts@
p << report_void_cast.p;
@@
coccilib.report.print_report(p[0], "cast of a void * to struct tasklet_struct *: MODE=patch drops it (a void * converts to struct work_struct * without a cast)")

@script:python depends on report && !facts@
p << report_type.p;
@@
coccilib.report.print_report(p[0], "struct tasklet_struct: MODE=patch writes struct work_struct (the type of every tasklet becomes the work item's)")
