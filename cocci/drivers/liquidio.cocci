// SPDX-License-Identifier: GPL-2.0-only
/// liquidio (PF): octeon_device_init() now sets droq_tasklet up first
/// thing. liquidio_probe() calls liquidio_remove() when that function
/// fails, and octeon_destroy_resources() kills the tasklet whatever state
/// the device reached, also after a failure before the old tasklet_setup().
/// tasklet_kill() on the zeroed tasklet returned at once, but
/// flush_work() on a work item never initialised warns, so the item
/// is set up before the first failure exit. A kill of a set-up tasklet
/// that was never scheduled does nothing, as on the zeroed one, and nothing
/// can schedule it sooner than before: the interrupt handlers are
/// registered after the old place, octeon_destroy_resources() calls
/// lio_wait_for_oq_pkts() only from OCT_DEV_IO_QUEUES_DONE on, a state set
/// after it, and octeon_droq_bh() schedules itself only from a run.
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4 (the same code in both). A
//  per-driver patch: it rewrites one tasklet form into another, which the
//  generic rules convert.
// Files: drivers/net/ethernet/cavium/liquidio/lio_main.c
// Options: --no-includes --include-headers

virtual patch

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
