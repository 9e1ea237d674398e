// SPDX-License-Identifier: GPL-2.0-only
/// struct tasklet_struct becomes struct work_struct everywhere a type is
/// written: fields, variables, arrays, pointers, parameters, sizeof.
// Confidence: High
// Comments: Runs last, so the rules before it still see the tasklet types.
// Options: --no-includes --include-headers

virtual patch
virtual report
virtual facts

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

@script:python depends on report && !facts@
p << report_type.p;
@@
coccilib.report.print_report(p[0], "struct tasklet_struct: MODE=patch writes struct work_struct (the type of every tasklet becomes the work item's)")
