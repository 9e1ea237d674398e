// SPDX-License-Identifier: GPL-2.0-only
/// qe_udc_remove() disables rx_tasklet right after usb_del_gadget_udc(),
/// frees ep0's buffers, then frees the IRQ and kills the tasklet. The
/// tasklet is scheduled by the interrupt handler only (qe_ep_rx(), from
/// rx_irq()), which stays registered until free_irq(). A run that is still
/// pending when tasklet_disable() is called (an RX interrupt taken just
/// before fsl_qe_stop() turned the controller off, whose softirq has not
/// run yet), or one the handler schedules before free_irq(), never runs,
/// because the tasklet is disabled; tasklet_kill() waits for that run to
/// finish, so the remove hangs, with the softirq requeueing the disabled
/// tasklet for ever.
///
/// Free the IRQ first and kill the tasklet right after, where the disable
/// was: the interrupt handler, which reads ep0's buffers through rx_irq()
/// and qe_ep0_rx(), is gone before they are freed; tasklet_kill() lets a
/// pending ep_rx_tasklet() run finish instead of waiting for ever on a
/// disabled tasklet; and nothing can schedule the tasklet after that.
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4 (the same remove in both).
//  A fix on its own, before the conversion of the driver.
// Files: drivers/usb/gadget/udc/fsl_qe_udc.c
// Options: --no-includes --include-headers
// Fix: Free the IRQ and kill the RX tasklet first on remove

virtual patch

@kill_first depends on patch@
identifier fn = qe_udc_remove;
expression T, I, U;
@@
fn(...)
{
  ...
- tasklet_disable(T);
+ free_irq(I, U);
+ irq_dispose_mapping(I);
+ tasklet_kill(T);
  ...
- free_irq(I, U);
- irq_dispose_mapping(I);
- tasklet_kill(T);
  ...
}
