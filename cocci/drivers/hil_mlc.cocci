// SPDX-License-Identifier: GPL-2.0-only
/// hil_mlc: hil_mlcs_tasklet is declared disabled so that hil_mlcs_process()
/// cannot run before hil_mlc_init() has set up hil_mlcs_kicker, the timer
/// that hilse_donode() re-arms with mod_timer(). Nothing orders the MLC
/// drivers after hil_mlc_init(): hil_mlc_register() schedules the tasklet,
/// and when both are built in, hp_sdc_mlc.o is linked before hil_mlc.o
/// (drivers/input/serio/Makefile), so hp_sdc_mlc_init() registers its MLC,
/// and schedules the tasklet, before hil_mlc_init() runs. The tasklet is
/// declared enabled instead, and hil_mlcs_process() returns at once until
/// hil_mlc_init() sets hil_mlcs_ready, in place of the enable, and then
/// schedules it. hil_mlcs_process() takes nothing from whoever scheduled
/// it: it walks the registered MLCs when it runs. So the runs that return
/// early stand for the runs the disabled tasklet kept pending, which all
/// folded into one run after the enable; that run is the one
/// hil_mlc_init() schedules after setting the flag (one more run when none
/// was pending, of the kind hil_mlcs_timer() makes every second). A run
/// that sees the flag set also sees the timer set up (store-release,
/// load-acquire).
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4. A per-driver patch: it
//  rewrites one tasklet form into another, which the generic rules convert.
// Files: drivers/input/serio/hil_mlc.c
// Mapping: DECLARE_TASKLET_DISABLED_OLD() -> DECLARE_WORK() and hil_mlcs_ready
// Mapping: tasklet_enable() -> setting hil_mlcs_ready (hil_mlc_init())
// Options: --no-includes --include-headers

virtual patch

// Every rule below must match, or the file is left as it was.
@decl depends on patch@
declarer name DECLARE_TASKLET_DISABLED_OLD;
identifier t = hil_mlcs_tasklet;
identifier f = hil_mlcs_process;
@@
  static DECLARE_TASKLET_DISABLED_OLD(t, f);

// After its one declaration, before anything else.
@gate depends on patch && decl@
identifier decl.f;
identifier unused;
declaration D;
statement S;
@@
  void f(unsigned long unused)
  {
  D
+
+ if (!hil_mlcs_is_ready())
+	return;
  S
  ...
  }

@ready depends on patch && decl@
identifier init = hil_mlc_init;
identifier decl.t;
@@
init(...)
{
  ...
- tasklet_enable(&t);
+ /* hil_mlcs_kicker is set up before hil_mlcs_process() sees it. */
+ smp_store_release(&hil_mlcs_ready, true);
+ tasklet_schedule(&t);
  ...
}

@enabled depends on patch && decl && gate && ready@
declarer name DECLARE_TASKLET_DISABLED_OLD, DECLARE_TASKLET_OLD;
identifier decl.t, decl.f;
@@
- static DECLARE_TASKLET_DISABLED_OLD(t, f);
+ static DECLARE_TASKLET_OLD(t, f);
+ /* Set by hil_mlc_init(): until then hil_mlcs_process() returns at once. */
+ static bool hil_mlcs_ready;
+
+ static bool hil_mlcs_is_ready(void)
+ {
+	/* Pairs with the release in hil_mlc_init(): its timer is seen here. */
+	return smp_load_acquire(&hil_mlcs_ready);
+ }
