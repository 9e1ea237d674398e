// SPDX-License-Identifier: GPL-2.0-only
/// ieee80211_unregister_hw() kills the tasklet before it removes the
/// interfaces, and relies on it ("the tasklet is killed"). Removing the
/// last running interface stops the device (ieee80211_do_stop() ->
/// ieee80211_stop_device() -> drv_stop()), and drv_stop()'s enable of the
/// work item queues a run (enable_and_queue_work(), see below): that run
/// would be queued after the kill, run while the interfaces go, and may
/// run after the driver has freed the ieee80211_local (ieee80211_free_hw())
/// that holds the item. The kill now leaves the item disabled: drv_stop()'s
/// disable/enable pair then ends with the item still disabled, and its
/// enable queues nothing, as tasklet_enable() queued nothing. Nothing
/// enables it again: the ieee80211_local is freed next.
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4. A per-driver patch: it
//  keeps the generic rules' enable in drv_stop() from queueing after the
//  kill of ieee80211_unregister_hw().
// Files: net/mac80211/main.c
// Options: --no-includes --include-headers

virtual patch

@kill_leaves_disabled depends on patch@
identifier fn = ieee80211_unregister_hw;
expression L;
@@
fn(...)
{
  ...
  tasklet_kill(&L->tasklet);
+ tasklet_disable(&L->tasklet);
  ...
}
