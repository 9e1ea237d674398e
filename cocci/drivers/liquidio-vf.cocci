// SPDX-License-Identifier: GPL-2.0-only
/// liquidio_vf never sets up droq_tasklet: only lio_main.c (the PF driver)
/// calls tasklet_setup() on it, and the VF's octeon_device comes zeroed
/// from vzalloc() in octeon_allocate_device_mem(), so its callback is NULL.
/// The VF still schedules it in two places: lio_wait_for_oq_pkts(), when
/// octeon_destroy_resources() finds packets left in an output queue, and
/// liquidio_schedule_msix_droq_pkt_handler() in lio_core.c, for an RX
/// interrupt on a queue not in poll mode, which that function reports on a
/// VF as "should not come here" (liquidio_msix_intr_handler() is the only
/// interrupt handler a VF registers). Each such schedule either runs the
/// tasklet, a call of a NULL function in softirq context, or, while its
/// count is not zero, leaves it pending for ever, so that the
/// tasklet_kill() at the end of octeon_destroy_resources() never returns;
/// on a normal remove the count is -1 by then, as
/// liquidio_destroy_nic_device() enables it once more after liquidio_stop()
/// has.
///
/// No VF path can depend on it. The VF no longer schedules it: lio_core.c
/// keeps the error message for a VF and schedules the tasklet for a PF
/// only, as before, and the VF's lio_wait_for_oq_pkts() still waits until
/// the hardware reports no new packet; what is left in the rings is freed
/// by octeon_delete_droq() later in octeon_destroy_resources(). With
/// nothing scheduling the tasklet, the VF's tasklet_disable(),
/// tasklet_enable() and tasklet_kill() calls only change a count nothing
/// reads, and they go, with the oct_priv locals that served them.
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4 (the same code in both). The
//  PF driver (lio_main.c) sets the tasklet up and keeps every call of it.
// Files: drivers/net/ethernet/cavium/liquidio/lio_vf_main.c drivers/net/ethernet/cavium/liquidio/lio_core.c
// Options: --no-includes --include-headers
// Fix: vf: Stop scheduling the DROQ tasklet the VF never sets up

virtual patch

// lio_vf_main.c: the calls on the VF's tasklet.
@vf_calls depends on patch@
identifier fn = {lio_wait_for_oq_pkts, octeon_destroy_resources,
                 liquidio_destroy_nic_device, liquidio_open, liquidio_stop};
expression P, C, S;
@@
fn(...)
{
  <...
(
- if (C) {
-	S;
-	tasklet_schedule(&P->droq_tasklet);
- }
+ if (C)
+	S;
|
- tasklet_kill(&P->droq_tasklet);
|
- tasklet_enable(&P->droq_tasklet);
|
- tasklet_disable(&P->droq_tasklet);
)
  ...>
}

// ... and the locals that only served them.
@vf_local depends on patch@
identifier vf_calls.fn;
identifier p;
expression O;
@@
fn(...)
{
  ...
- struct octeon_device_priv *p = O->priv;
  ... when != p
}

// lio_core.c, shared by the PF and the VF: schedule for a PF only.
@vf_irq depends on patch@
identifier fn = liquidio_schedule_msix_droq_pkt_handler;
expression O, P;
statement S;
@@
fn(...)
{
  <...
- if (OCTEON_CN23XX_VF(O))
-	S
- tasklet_schedule(&P->droq_tasklet);
+ if (OCTEON_CN23XX_VF(O))
+	S
+ else
+	tasklet_schedule(&P->droq_tasklet);
  ...>
}
