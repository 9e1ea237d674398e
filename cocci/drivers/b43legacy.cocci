// SPDX-License-Identifier: GPL-2.0-only
/// b43legacy_op_bss_info_changed() calls b43legacy_synchronize_irq() with
/// wl->irq_lock held and interrupts off, which the comment above that
/// function forbids ("This must not be called with the irq_lock held"):
/// b43legacy_interrupt_handler() and b43legacy_interrupt_tasklet() both
/// take wl->irq_lock, so synchronize_irq() waiting for a handler about to
/// take the lock, or tasklet_kill() waiting for a scheduled or running
/// tasklet, never returns, and both sleep to wait, which is not allowed
/// with a spinlock held and interrupts off. The call only completes when
/// it has nothing to wait for; a BSSID change that comes while the
/// handler or the tasklet runs on another CPU deadlocks with it.
///
/// Drop the lock around the call and take it again after it, as
/// b43legacy_op_dev_config() calls it, once GEN_IRQ_MASK has been cleared
/// under the lock as before. wl->mutex is held throughout, and once the
/// hardware is registered every change of the device status is made with
/// wl->mutex held, so the status checked under the lock still holds; the
/// BSSID copy and the template writes that follow still run under
/// wl->irq_lock. A handler or tasklet that takes the lock in the gap is one
/// that would have waited for it and run right after this section.
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4. A fix on its own, before the
//  conversion of the driver.
// Files: drivers/net/wireless/broadcom/b43legacy/main.c
// Options: --no-includes --include-headers
// Fix: Do not synchronize the IRQ under irq_lock in bss_info_changed

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
