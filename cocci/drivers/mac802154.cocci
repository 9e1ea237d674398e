// SPDX-License-Identifier: GPL-2.0-only
/// ieee802154_unregister_hw() killed the tasklet before it removed the
/// interfaces. Removing the last one stops the device
/// (mac802154_slave_close() -> ieee802154_stop_device() -> drv_stop()),
/// and drv_stop()'s enable of the work item queues a run
/// (enable_and_queue_work(), see below): that run would be queued after the
/// kill, and the driver frees the ieee802154_local that holds the item
/// (ieee802154_free_hw()) right after ieee802154_unregister_hw() returns.
/// The kill now comes after the interfaces are removed, once the device is
/// stopped, and before the work queues are destroyed: it runs or cancels
/// what the stop queued. Until then frames the driver hands over are
/// processed as before, when ieee802154_rx_irqsafe() scheduled the tasklet
/// again after the old kill.
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4. A per-driver patch: it
//  moves the kill so that the generic rules' enable cannot queue after it.
// Files: net/mac802154/main.c
// Options: --no-includes --include-headers

virtual patch

@kill_after_stop depends on patch@
identifier fn = ieee802154_unregister_hw;
expression E;
@@
fn(...)
{
  ...
- tasklet_kill(E);
  ...
  rtnl_unlock();
+ tasklet_kill(E);
  ...
}
