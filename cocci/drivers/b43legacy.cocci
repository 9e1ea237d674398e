// SPDX-License-Identifier: GPL-2.0-only
/// b43legacy: b43legacy_op_bss_info_changed() called b43legacy_synchronize_irq()
/// with wl->irq_lock held and interrupts off, which the comment above that
/// function forbids: b43legacy_interrupt_handler() and
/// b43legacy_interrupt_tasklet() both take wl->irq_lock, so synchronize_irq()
/// waiting for a handler about to take the lock, or tasklet_kill() waiting
/// for a scheduled or running tasklet, could never return, and tasklet_kill()
/// sleeps to wait. The call could only complete when it had nothing to wait
/// for. It now runs with the lock dropped before it and taken again after
/// it, as b43legacy_op_dev_config() calls it, once GEN_IRQ_MASK has been
/// cleared under the lock as before. wl->mutex is held throughout, and once
/// the hardware is registered every change of the device status is made
/// with wl->mutex held, so the status checked under the lock still holds;
/// the BSSID copy and the template writes that follow still run under
/// wl->irq_lock. A handler or tasklet that takes the lock in the gap is one
/// that would have waited for it and run right after this section.
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4. A per-driver patch: it
//  rewrites one tasklet form into another, which the generic rules convert.
// Files: drivers/net/wireless/broadcom/b43legacy/main.c
// Options: --no-includes --include-headers

virtual patch

@unlocked_sync depends on patch exists@
identifier fn = b43legacy_op_bss_info_changed;
expression L, F, D;
@@
fn(...)
{
  ... when any
  spin_lock_irqsave(L, F);
  ... when != spin_unlock_irqrestore(L, F);
+ spin_unlock_irqrestore(L, F);
  b43legacy_synchronize_irq(D);
+ spin_lock_irqsave(L, F);
  ... when any
}
