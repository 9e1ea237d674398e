// SPDX-License-Identifier: GPL-2.0-only
/// liquidio (PF): octeon_device_init() now sets droq_tasklet up first
/// thing. liquidio_probe() calls liquidio_remove() when that function
/// fails, and octeon_destroy_resources() kills the tasklet whatever state
/// the device reached, also after a failure before the old tasklet_setup().
/// A kill of a set-up tasklet that was never scheduled does nothing, as on
/// the zeroed one, and nothing can schedule it sooner than before: the
/// interrupt handlers are registered after the old place,
/// octeon_destroy_resources() calls lio_wait_for_oq_pkts() only from
/// OCT_DEV_IO_QUEUES_DONE on, a state set after it, and octeon_droq_bh()
/// schedules itself only from a run. liquidio_destroy_nic_device() enabled
/// the tasklet unconditionally, after liquidio_stop() had already enabled
/// it for an interface that was up, and for an interface never opened,
/// which never disabled it: on a normal remove the count went to -1 (-N
/// after N interfaces), so the tasklet never ran again, and a schedule (as
/// lio_wait_for_oq_pkts() does for packets left in an output queue) left it
/// pending, so the tasklet_kill() at the end of octeon_destroy_resources()
/// never returned. It now disables the tasklet there. Every enable left is
/// liquidio_stop()'s, made only when it turns napi_enabled from 1 to 0, and
/// napi_enabled becomes 1 only in liquidio_open(), right after its
/// disable: an enable undoes a disable of its own interface, never the one
/// liquidio_destroy_nic_device() adds. So from the first
/// liquidio_destroy_nic_device() of a device until the device is freed the
/// count is at least one and the tasklet does not run, as on every normal
/// remove before; and tasklet_disable() also waits for a run in progress,
/// so octeon_droq_bh() (lio_nic_info() updates a netdev's link state) is not
/// running either while the interface is unregistered and freed. Where the
/// old enable brought the count back to 0 instead, the tasklet could run
/// there and in the drain of octeon_destroy_resources(); now it does not.
/// That was the case for an interface whose liquidio_stop() returned early
/// because the RX stop command failed (napi_enabled still 1), for one whose
/// liquidio_open() had failed after its disable (its error exit does not
/// enable again), and while another interface of the device was still
/// open. Nothing after liquidio_destroy_nic_device() needs a run. On
/// remove, liquidio_stop_nic_module() has unregistered the DROQ ops before,
/// lio_wait_for_oq_pkts() returns 0 however many packets it saw, and
/// octeon_delete_droq() frees what is left in the rings. When
/// setup_nic_devices() fails, the DROQ ops it registered still pass packets
/// to the netdev being freed, which a run must not reach.
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4 (the same code in both). A
//  per-driver patch: it rewrites one tasklet form into another, which the
//  generic rules convert.
// Files: drivers/net/ethernet/cavium/liquidio/lio_main.c
// Options: --no-includes --include-headers

virtual patch

// liquidio_destroy_nic_device(): off for good, not one enable too many.
@destroy_off depends on patch@
identifier fn = liquidio_destroy_nic_device;
expression T;
@@
fn(...)
{
  <...
- tasklet_enable(T);
+ /* No DROQ processing from here on: the netdev is about to be freed. */
+ tasklet_disable(T);
  ...>
}

// octeon_device_init(): set up before the first failure exit, after which
// liquidio_probe() calls liquidio_remove().
@late_setup depends on patch exists@
identifier fn = octeon_device_init;
expression T, C;
@@
fn(...)
{
  ...
  tasklet_setup(T, C);
  ...
}

@early_setup depends on patch@
identifier late_setup.fn;
expression late_setup.T, late_setup.C;
expression O, D;
constant char[] S;
@@
fn(...)
{
  ...
  atomic_set(&O->status, OCT_DEV_BEGIN_STATE);
+ /* Initialize the tasklet that handles output queue packet processing.*/
+ dev_dbg(D, S);
+ tasklet_setup(T, C);
  ...
- dev_dbg(D, S);
- tasklet_setup(T, C);
  ...
}
