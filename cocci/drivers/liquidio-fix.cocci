// SPDX-License-Identifier: GPL-2.0-only
/// The DROQ tasklet (octeon_droq_bh) is disabled by liquidio_open() when it
/// turns napi_enabled from 0 to 1, and enabled again by liquidio_stop()
/// when it turns napi_enabled from 1 to 0. liquidio_destroy_nic_device()
/// enables it once more, unconditionally, after liquidio_stop() has: on
/// every remove of an interface that was up, and on every remove of one
/// never opened, the count goes below zero (to -N after N interfaces). A
/// tasklet whose count is not zero never runs, so from then on
/// octeon_droq_bh() never runs again. octeon_destroy_resources() then calls
/// lio_wait_for_oq_pkts(), which schedules the tasklet on each pass of its
/// wait loop while any output queue still holds packets: the schedule stays
/// pending, the softirq requeues the tasklet for ever, and the
/// tasklet_kill() at the end of octeon_destroy_resources() never returns,
/// so the remove hangs. The error exit of liquidio_open() has the opposite
/// fault: it turns napi_enabled back to 0 without enabling the tasklet, so
/// after a failed open the tasklet stays disabled while the interface is
/// down, also after a later open and stop; only the unconditional enable of
/// liquidio_destroy_nic_device() undid that.
///
/// Enable the tasklet where napi_enabled goes from 1 to 0 and only there,
/// as liquidio_stop() already does: in liquidio_destroy_nic_device(),
/// inside its napi_enabled == 1 branch (an interface whose liquidio_stop()
/// returned before that point, because the RX stop command failed), and on
/// the error exit of liquidio_open(). Each enable now undoes the disable of
/// its own interface, the count never goes below zero, and after the last
/// interface of a device is gone it is zero, as before any interface was
/// opened: the tasklet drains the output queues for lio_wait_for_oq_pkts(),
/// and tasklet_kill() returns.
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4 (the same code in both).
//  A fix on its own, before the conversion of the driver.
// Files: drivers/net/ethernet/cavium/liquidio/lio_main.c
// Options: --no-includes --include-headers
// Fix: Enable the DROQ tasklet once per disable

virtual patch

// liquidio_destroy_nic_device(): the enable moves into the branch that
// turns napi_enabled from 1 to 0.
@destroy_once depends on patch@
identifier fn = liquidio_destroy_nic_device;
expression E, T;
@@
fn(...)
{
  ...
  if (E.napi_enabled == 1) {
  ...
+ tasklet_enable(T);
  }
  ...
- tasklet_enable(T);
  ...
}

// liquidio_open(): its error exit turns napi_enabled from 1 to 0 too.
@open_undo depends on patch exists@
identifier fn = liquidio_open;
expression E, E2, T;
@@
fn(...)
{
  ...
  if (E.napi_enabled == 0) {
  tasklet_disable(T);
  ...
  }
  ...
  if (E2.napi_enabled == 1) {
  ...
  E2.napi_enabled = 0;
  ...
+ tasklet_enable(T);
  }
  ...
}
