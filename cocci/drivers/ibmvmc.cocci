// SPDX-License-Identifier: GPL-2.0-only
/// ibmvmc: ibmvmc_release_crq_queue(), called from ibmvmc_remove(), frees
/// the IRQ, kills work_task and only then stops the reset thread, before it
/// frees the CRQ and its page. The thread may be in the middle of a reset: it disabled
/// work_task and will enable it again. The enable of the work item queues a
/// run (enable_and_queue_work(), see below), so a run queued after the kill
/// would read the CRQ page that the release frees. The reset thread is now
/// stopped first: kthread_stop() waits for it to finish its reset, and the
/// kill that follows lets whatever the reset queued run and waits for it,
/// before the CRQ is freed. With the IRQ already freed nothing else queues
/// work_task.
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4. A per-driver patch: it
//  reorders the release so that the generic rules' enable cannot queue
//  after the kill.
// Files: drivers/misc/ibmvmc.c
// Options: --no-includes --include-headers

virtual patch

@stop_first depends on patch@
identifier fn = ibmvmc_release_crq_queue;
expression E, T;
@@
fn(...)
{
  ...
- tasklet_kill(E);
  if (T)
	kthread_stop(T);
+ tasklet_kill(E);
  ...
}
