// SPDX-License-Identifier: GPL-2.0-only
/// sc92031: sc92031_disable_interrupts() is called from sc92031_stop() and
/// sc92031_suspend(), which may sleep, and from sc92031_tx_timeout(), the
/// ndo_tx_timeout, which the netdev watchdog timer calls in softirq context
/// with dev->tx_global_lock held, where it may not. Its tasklet_disable()
/// becomes tasklet_disable_in_atomic(): both raise the disable count and
/// then wait until a running sc92031_tasklet() has returned; the first
/// sleeps in that wait (tasklet_unlock_wait()), the second spins
/// (tasklet_unlock_spin_wait()). The tasklet is disabled and waited for as
/// before on all three paths, and the wait no longer sleeps under the
/// watchdog.
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4. A per-driver patch: it
//  rewrites one tasklet form into another, which the generic rules convert.
//  sc92031_disable_interrupts() also calls synchronize_irq() on the
//  tx_timeout path; that call is not a tasklet call and is left alone.
// Files: drivers/net/ethernet/silan/sc92031.c
// Options: --no-includes --include-headers

virtual patch

@spin_wait depends on patch@
identifier fn = sc92031_disable_interrupts;
expression T;
@@
fn(...)
{
  <...
- tasklet_disable(T);
+ tasklet_disable_in_atomic(T);
  ...>
}
