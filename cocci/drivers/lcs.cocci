// SPDX-License-Identifier: GPL-2.0-only
/// lcs: the irq_tasklet of the read and write channels was set up by hand
/// (.data and .func) only in lcs_setup_read() and lcs_setup_write(), which
/// run when the card is set online (lcs_new_device()), but
/// lcs_cleanup_channel() kills it both from lcs_remove_device(), also for a
/// card never set online, and from the failure exit of lcs_alloc_card() in
/// lcs_probe_device(): a kill of a tasklet that was never set up. The set-up
/// moves to lcs_alloc_card(), right after the card is allocated, as a
/// tasklet_init() with the same callback and data (lcs_tasklet(), the
/// channel); lcs_setup_read() and lcs_setup_write() no longer write them.
/// Both values are fixed for the life of the card, so writing them once is
/// writing what each online wrote again. Nothing can schedule the tasklet
/// any earlier than before: only lcs_irq() does, for I/O that
/// lcs_start_channel() starts once the card is online.
// Confidence: High
// Comments: Read on Linux 6.12.118 (the driver is gone in 7.3). A
//  per-driver patch: it rewrites one tasklet form into another, which the
//  generic rules convert.
// Files: drivers/s390/net/lcs.c
// Options: --no-includes --include-headers

virtual patch

@by_hand depends on patch@
identifier fn = {lcs_setup_read, lcs_setup_write};
expression C, D;
identifier F;
@@
fn(...)
{
  ...
- C.irq_tasklet.data = D;
- C.irq_tasklet.func = F;
  ...
}

@at_alloc depends on patch && by_hand@
identifier fn = lcs_alloc_card;
expression E;
@@
fn(...)
{
  ...
  E = kzalloc(...);
  if (E == NULL)
    return NULL;
+ tasklet_init(&E->read.irq_tasklet, lcs_tasklet, (unsigned long)&E->read);
+ tasklet_init(&E->write.irq_tasklet, lcs_tasklet, (unsigned long)&E->write);
  ...
}
