// SPDX-License-Identifier: GPL-2.0-only
/// omap-keypad: kp_tasklet is one file-scope tasklet, declared disabled,
/// whose data omap_kp_probe() sets to the probed struct omap_kp before it
/// enables it; omap_kp_remove() disables it and later kills it, before
/// kfree(omap_kp). It moves into struct omap_kp, set up where the data and
/// the enable were, with the same callback, which finds that struct omap_kp
/// from the item it runs for. At that point nothing can queue it: the MPUIO keyboard interrupt is
/// masked, request_irq() comes later, and omap_kp->timer is armed only by
/// omap_kp_tasklet() itself. The interrupt handler reaches it through its
/// dev_id, the omap_kp given to request_irq(), and omap_kp_timer() through
/// the timer, a member of the same struct omap_kp. The probe error paths
/// (err2, err3) free omap_kp with nothing left to queue the item: the
/// interrupt was not requested, and the timer was never armed.
/// omap_kp_remove() keeps its order: the disable still waits for a running
/// omap_kp_tasklet() and keeps it from running again, so it cannot unmask
/// the keyboard interrupt after the mask write that follows; the kill after
/// free_irq() and timer_shutdown_sync() goes, as the disable has already
/// cancelled and waited, and nothing can queue a disabled item. The disable is
/// no longer balanced by an enable of the next probe: each probe sets up an
/// item of its own, enabled. This also ends the count shared across
/// probes: a probe that failed after the enable (err2, err3) left the global
/// tasklet enabled, and the next probe's enable took its count below zero,
/// so that it never ran again.
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4. A per-driver patch: it
//  rewrites one tasklet form into another, which the generic rules convert.
//  container_of() rather than from_timer()/timer_container_of(): 6.12 has
//  only the first, 7.3 only the second.
// Files: drivers/input/keyboard/omap-keypad.c
// Mapping: DECLARE_TASKLET_DISABLED_OLD() -> a work item in struct omap_kp
// Mapping: tasklet_enable() -> INIT_WORK() in omap_kp_probe()
// Options: --no-includes --include-headers

virtual patch

// Every rule below must match, or the file is left as it was.
@decl depends on patch@
declarer name DECLARE_TASKLET_DISABLED_OLD;
identifier kpt = kp_tasklet;
identifier f;
@@
  static DECLARE_TASKLET_DISABLED_OLD(kpt, f);

@member depends on patch && decl@
identifier tm = timer;
identifier decl.kpt;
@@
struct omap_kp {
  ...
  struct timer_list tm;
+ struct tasklet_struct kpt;
  ...
};

@probe depends on patch && decl@
identifier p = omap_kp_probe;
identifier decl.kpt, decl.f;
expression K;
@@
p(...)
{
  ...
- kpt.data = (unsigned long) K;
- tasklet_enable(&kpt);
+ tasklet_init(&K->kpt, f, (unsigned long)K);
  ...
}

@irq depends on patch && decl@
identifier h = omap_kp_interrupt;
identifier irq, dev_id;
identifier decl.kpt;
@@
h(int irq, void *dev_id)
{
+ struct omap_kp *omap_kp = dev_id;
+
  ...
- tasklet_schedule(&kpt);
+ tasklet_schedule(&omap_kp->kpt);
  ...
}

@timer depends on patch && decl@
identifier tf = omap_kp_timer;
identifier unused;
identifier decl.kpt;
@@
tf(struct timer_list *
-  unused
+  t
  )
{
+ struct omap_kp *omap_kp = container_of(t, struct omap_kp, timer);
+
- tasklet_schedule(&kpt);
+ tasklet_schedule(&omap_kp->kpt);
}

@remove depends on patch && decl@
identifier r = omap_kp_remove;
identifier decl.kpt;
identifier kp;
@@
r(...)
{
  struct omap_kp *kp = ...;
  <...
(
- tasklet_disable(&kpt);
+ tasklet_disable(&kp->kpt);
|
- tasklet_kill(&kpt);
+ tasklet_kill(&kp->kpt);
)
  ...>
}

@no_global depends on patch && decl && member && probe && irq && timer && remove@
declarer name DECLARE_TASKLET_DISABLED_OLD;
identifier decl.kpt, decl.f;
@@
- static DECLARE_TASKLET_DISABLED_OLD(kpt, f);
