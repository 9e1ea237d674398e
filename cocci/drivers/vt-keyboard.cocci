// SPDX-License-Identifier: GPL-2.0-only
/// vt keyboard: keyboard_tasklet is declared disabled so that kbd_bh()
/// cannot run before kbd_init(): kbd_bh() hands the LED state to the
/// kbd-* LED triggers, whose lists led_trigger_register() initialises in
/// kbd_init_leds(), or, without LED triggers, to the handles of
/// kbd_handler, whose list input_register_handler() initialises. Nothing
/// orders the callers of set_leds() in the VT (console switch, the DECLL
/// escape, KDSETLED, KDSKBLED, tty stop and start) after kbd_init(), and
/// kbd_event() schedules it as soon as input_register_handler() has
/// connected a keyboard, before kbd_init() enables it. The tasklet is
/// declared enabled instead, and kbd_bh() returns at once until kbd_init()
/// sets kbd_bh_ready, in place of the enable, right before its
/// tasklet_schedule(). kbd_bh() takes nothing from whoever scheduled it:
/// it reads the LED state when it runs. So the runs that return early
/// stand for the runs the disabled tasklet kept pending, which all folded
/// into one run after the enable; that run is the one kbd_init() schedules
/// after setting the flag, and it reads every change made before. A run
/// that sees the flag set also sees what kbd_init() did before setting it
/// (store-release, load-acquire). kbd_start() and
/// kbd_led_trigger_activate() still disable and enable the tasklet around
/// their own LED update, from a count of zero instead of one. If
/// input_register_handler() fails, kbd_bh() keeps returning early where
/// the tasklet stayed disabled.
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4. A per-driver patch: it
//  rewrites one tasklet form into another, which the generic rules convert.
//  The flag is tested in kbd_bh() rather than at its schedulers so that it
//  also covers the runs queued by the enables of kbd_start() and
//  kbd_led_trigger_activate() (decisions/vt-keyboard.toml), which can come
//  before kbd_init() has set it.
// Files: drivers/tty/vt/keyboard.c
// Mapping: DECLARE_TASKLET_DISABLED() -> DECLARE_WORK() and kbd_bh_ready
// Mapping: tasklet_enable() -> setting kbd_bh_ready (kbd_init())
// Options: --no-includes --include-headers

virtual patch

// Every rule below must match, or the file is left as it was.
@decl depends on patch@
declarer name DECLARE_TASKLET_DISABLED;
identifier t = keyboard_tasklet;
identifier f = kbd_bh;
@@
  static DECLARE_TASKLET_DISABLED(t, f);

// After the declarations (one in 7.3, two in 6.12), before anything else.
@gate depends on patch && decl@
identifier decl.f;
identifier unused;
declaration D1, D2;
statement S;
@@
  void f(struct tasklet_struct *unused)
  {
(
  D1
  D2
+
+ if (!kbd_bh_is_ready())
+	return;
  S
|
  D1
+
+ if (!kbd_bh_is_ready())
+	return;
  S
)
  ...
  }

@ready depends on patch && decl@
identifier init = kbd_init;
identifier decl.t;
@@
init(...)
{
  ...
- tasklet_enable(&t);
+ /* The LED triggers and handlers are set up before kbd_bh() sees it. */
+ smp_store_release(&kbd_bh_ready, true);
  tasklet_schedule(&t);
  ...
}

@enabled depends on patch && decl && gate && ready@
declarer name DECLARE_TASKLET_DISABLED, DECLARE_TASKLET;
identifier decl.t, decl.f;
@@
- static DECLARE_TASKLET_DISABLED(t, f);
+ static DECLARE_TASKLET(t, f);
+ /* Set by kbd_init(): until then kbd_bh() returns at once. */
+ static bool kbd_bh_ready;
+
+ static bool kbd_bh_is_ready(void)
+ {
+	/* Pairs with the release in kbd_init(): its setup is seen here. */
+	return smp_load_acquire(&kbd_bh_ready);
+ }
