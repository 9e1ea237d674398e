// SPDX-License-Identifier: GPL-2.0-only
/// hil_mlc: hil_mlcs_tasklet is declared disabled only for hil_mlc_init() to
/// enable it, once, right after arming hil_mlcs_kicker for one second later.
/// Nothing else can schedule it before: MLCs register through
/// hil_mlc_register(), which the MLC drivers (hp_sdc_mlc) can only call
/// after this module's init has returned, and a run with no MLC registered
/// would walk an empty list. The tasklet is declared enabled instead and the
/// enable goes; hil_mlc_exit() still stops the timer and then kills it.
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4. A per-driver patch: it
//  rewrites one tasklet form into another, which the generic rules convert.
// Files: drivers/input/serio/hil_mlc.c
// Options: --no-includes --include-headers

virtual patch

@declared_enabled depends on patch@
declarer name DECLARE_TASKLET_DISABLED_OLD;
declarer name DECLARE_TASKLET_OLD;
identifier t = hil_mlcs_tasklet;
identifier f;
@@
- DECLARE_TASKLET_DISABLED_OLD(t, f);
+ DECLARE_TASKLET_OLD(t, f);

@no_enable depends on patch && declared_enabled@
identifier init = hil_mlc_init;
identifier declared_enabled.t;
@@
init(...)
{
  ...
- tasklet_enable(&t);
  ...
}
