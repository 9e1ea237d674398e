// SPDX-License-Identifier: GPL-2.0-only
/// struct tasklet_struct becomes struct work_struct everywhere a type is
/// written: fields, variables, arrays, pointers, parameters, sizeof.
// Confidence: High
// Comments: Runs last, so the rules before it still see the tasklet types.
// Options: --no-includes --include-headers

virtual patch

@patch_type depends on patch@
@@
- struct tasklet_struct
+ struct work_struct
