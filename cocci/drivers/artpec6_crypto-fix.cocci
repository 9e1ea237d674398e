// SPDX-License-Identifier: GPL-2.0-only
/// artpec6_crypto_remove() disables the tasklet, then frees the IRQ, then
/// kills the tasklet, and only then stops the timer. Both the interrupt
/// handler, artpec6_crypto_irq(), and the timer, artpec6_crypto_timeout(),
/// schedule the tasklet. A run that is pending when tasklet_disable() is
/// called (an end-of-packet interrupt that came just before the remove), or
/// one scheduled after it by an interrupt before devm_free_irq() or by the
/// timer before timer_delete_sync(), never runs, because the tasklet is
/// disabled; tasklet_kill() waits for that run to finish, so the remove
/// hangs, with the softirq requeueing the disabled tasklet for ever.
///
/// Stop what schedules the tasklet first, and let the kill wait for a
/// pending run instead of disabling it: free the IRQ, shut the timer down
/// with timer_shutdown_sync(), so that it neither runs nor can be armed
/// again (artpec6_crypto_task() re-arms it through
/// artpec6_crypto_process_queue() while jobs are pending), then kill the
/// tasklet. A pending run now runs and completes the requests it finds
/// done, as an ordinary run would, and tasklet_kill() returns once it has;
/// nothing can schedule the tasklet after that.
// Confidence: High
// Comments: Read on Linux 6.12.118 (del_timer_sync()) and 7.3.4
//  (timer_delete_sync()); the same remove otherwise. A fix on its own,
//  before the conversion of the driver.
// Files: drivers/crypto/axis/artpec6_crypto.c
// Options: --no-includes --include-headers
// Fix: Do not disable the tasklet before killing it on remove
// Fixes: a21eb94fc4d3 ("crypto: axis - add ARTPEC-6/7 crypto accelerator driver")

virtual patch

@stop_sources_first depends on patch@
identifier fn = artpec6_crypto_remove;
expression T, D, I, A, TM;
@@
fn(...)
{
  ...
- tasklet_disable(T);
  devm_free_irq(D, I, A);
+ timer_shutdown_sync(TM);
  tasklet_kill(T);
(
- del_timer_sync(TM);
|
- timer_delete_sync(TM);
)
  ...
}
