// SPDX-License-Identifier: GPL-2.0-only
/// When the adapter is removed (esas2r_remove(), esas2r_kill_adapter()),
/// esas2r_adapter_power_down() kills the adapter tasklet first, while the
/// interrupt is still requested: free_irq() comes only after
/// esas2r_power_down(), which waits up to three seconds for the firmware to
/// take its interface down, after the 500 ms stall and after the sysfs
/// files are removed. Until then esas2r_interrupt() schedules the tasklet
/// again for every interrupt it finds pending, also when another device
/// raised a shared INTx line, and esas2r_msi_interrupt() does through
/// esas2r_do_deferred_processes() when a reset or a port change is
/// pending. Such a run, and the runs it schedules itself, race with the
/// teardown; one still pending when free_irq() returns can run after the
/// outbound list, the request table and the register mappings that
/// esas2r_adapter_interrupt() reads have been freed. An adapter that came
/// up in degraded mode does not have its tasklet killed at all, though its
/// interrupt handler schedules it the same way.
///
/// Kill the tasklet once the interrupt is freed and MSI disabled, before
/// any of that memory is freed, whenever it was set up (AF2_INIT_DONE is
/// set only after tasklet_init()). The timer is still stopped first, and
/// suspend (power_management set) still neither stops the timer nor kills
/// the tasklet.
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4 (the same teardown in both;
//  the timer call is del_timer_sync() in the first, timer_delete_sync() in
//  the second). The kill and free_irq() are in this order since the driver
//  was added.
// Files: drivers/scsi/esas2r/esas2r_init.c
// Fix: Kill the adapter tasklet after freeing the interrupt
// Fixes: 26780d9e12ed ("[SCSI] esas2r: ATTO Technology ExpressSAS 6G SAS/SATA RAID Adapter Driver")
// Options: --no-includes --include-headers

virtual patch

// Every rule below must match, or the file is left as it was.
@early depends on patch@
identifier fn = esas2r_adapter_power_down;
identifier a, pm;
expression E;
@@
fn(struct esas2r_adapter *a, int pm)
{
  <...
- if (!pm) {
-   E;
-   tasklet_kill(&a->tasklet);
- }
+ if (!pm)
+   E;
  ...>
}

@late depends on patch && early@
identifier early.fn, early.a, early.pm;
@@
fn(struct esas2r_adapter *a, int pm)
{
  ...
  if (test_bit(AF2_MSI_ENABLED, &a->flags2)) {
    ...
  }
+
+ if (!pm && test_bit(AF2_INIT_DONE, &a->flags2))
+   tasklet_kill(&a->tasklet);
  ...
}
