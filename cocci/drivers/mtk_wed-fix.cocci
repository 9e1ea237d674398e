// SPDX-License-Identifier: GPL-2.0-only
/// mtk_wed_wo_hw_deinit() masks the WO interrupts and disables irq_tasklet
/// for good: nothing enables or kills it afterwards. The tasklet is
/// scheduled by the interrupt handler, mtk_wed_wo_irq_handler(), and by the
/// tasklet itself, through mtk_wed_wo_rx_complete(), after each run that
/// handled an RX interrupt, as when the WO answers the state change that
/// mtk_wed_wo_reset() sends right before mtk_wed_detach() calls
/// mtk_wed_wo_deinit(). A run that is pending when tasklet_disable() is
/// called, or one scheduled after it by a handler that was already running,
/// never runs: the softirq finds the tasklet disabled and puts it back on
/// its list, raising itself again, for as long as the system runs. The
/// struct mtk_wed_wo that holds it is device-managed memory of the WED
/// device, which is not released on detach: every later attach allocates a
/// new one in mtk_wed_wo_init(), while the old one stays on the softirq list.
///
/// Let the tasklet finish instead of disabling it: free the IRQ first, then
/// kill the tasklet, which lets a pending run go ahead and waits for it (after
/// that nothing schedules it: the handler is gone, and a run schedules the
/// next one only when it found an RX interrupt in the WO status and
/// acknowledged it, so the runs end with the WO's last message, the answer
/// to the state change included). A run rewrites the WO interrupt mask
/// (mtk_wed_wo_irq_disable()), so the mask is cleared once more after the
/// kill, before the queues are cleaned and freed.
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4 (the same code in both).
//  A fix on its own, before the conversion of the driver.
// Files: drivers/net/ethernet/mediatek/mtk_wed_wo.c
// Options: --no-includes --include-headers
// Fix: Kill the WO IRQ tasklet instead of disabling it on deinit
// Fixes: 799684448e3e ("net: ethernet: mtk_wed: introduce wed wo support")

virtual patch

@kill_after_free_irq depends on patch@
identifier fn = mtk_wed_wo_hw_deinit;
expression W, T, D, I, A;
@@
fn(...)
{
  ...
  mtk_wed_wo_set_isr(W, 0);
- tasklet_disable(T);
  ...
  devm_free_irq(D, I, A);
+ tasklet_kill(T);
+ /* a last run of mtk_wed_wo_irq_tasklet() may have unmasked them */
+ mtk_wed_wo_set_isr(W, 0);
  ...
}
