// SPDX-License-Identifier: GPL-2.0-only
/// ibmvscsis: ibmvscsis_probe() initialised work_task only after the command
/// buffer was allocated and DMA-mapped, but the unwind of those two failures
/// (free_buf, destroy_queue) already kills it. The init moves up to just
/// before that allocation, after ibmvscsis_create_command_q() succeeded:
/// every goto that reaches the kill now comes after it, and the ones before
/// it (free_timer and earlier) do not pass the kill. Nothing can schedule
/// work_task before the end of probe: its only schedule is in
/// ibmvscsis_interrupt(), registered by the request_irq() that probe does
/// last. Until then the tasklet is set up and idle, as it was zeroed and
/// idle, and a kill of it does nothing either way.
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4. A per-driver patch: it
//  rewrites one tasklet form into another, which the generic rules convert.
// Files: drivers/scsi/ibmvscsi_tgt/ibmvscsi_tgt.c
// Options: --no-includes --include-headers

virtual patch

@init_first depends on patch exists@
identifier probe = ibmvscsis_probe;
identifier t = work_task;
identifier cb;
expression V, D;
@@
probe(...)
{
  ...
+ tasklet_init(&V->t, cb, D);
+
  V->map_buf = kzalloc(...);
  ...
- tasklet_init(&V->t, cb, D);
  ...
}
