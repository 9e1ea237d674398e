// SPDX-License-Identifier: GPL-2.0-only
/// ieee80211_unregister_hw() kills the tasklet before it removes the
/// interfaces. Removing the last running interface stops the device
/// (ieee80211_do_stop() -> ieee80211_stop_device() -> drv_stop()), and
/// drv_stop()'s enable of the work item queues a run
/// (enable_and_queue_work(), see below): that run would be queued after
/// the kill, and could run after the driver has freed the ieee80211_local
/// that holds the item (ieee80211_free_hw()). The item is now killed a
/// second time once the interfaces are removed and the device is stopped:
/// that kill runs what the stop queued, with the frames the driver handed
/// over during its stop, before the skb queues are checked and purged.
/// With the tasklet those frames ran too, as the driver's
/// ieee80211_rx_irqsafe() or ieee80211_tx_status_irqsafe() scheduled it
/// again after the first kill.
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4. A per-driver patch: it
//  keeps the generic rules' enable in drv_stop() from queueing a run that
//  no kill follows.
// Files: net/mac80211/main.c
// Options: --no-includes --include-headers

virtual patch

@kill_again depends on patch@
identifier fn = ieee80211_unregister_hw;
expression L;
@@
fn(...)
{
  ...
  tasklet_kill(&L->tasklet);
  ...
  rtnl_unlock();
+ tasklet_kill(&L->tasklet);
  ...
}
