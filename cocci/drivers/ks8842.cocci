// SPDX-License-Identifier: GPL-2.0-only
/// ks8842: ks8842_alloc_dma_bufs() set up dma_rx.tasklet only after its
/// last failure exit, yet each failure exit calls ks8842_dealloc_dma_bufs(),
/// which kills it (and ks8842_open() calls ks8842_dealloc_dma_bufs() again
/// when the allocation failed), so the kill could meet a tasklet that was
/// never set up. tasklet_setup() moves to the top of ks8842_alloc_dma_bufs(),
/// before the first failure exit. Nothing can schedule the tasklet any
/// earlier than before: only ks8842_dma_rx_cb() does, the completion
/// callback of the RX descriptor that __ks8842_start_new_rx_dma() submits,
/// and that runs only once ks8842_alloc_dma_bufs() has returned 0 (from
/// ks8842_open(), from the tasklet itself, and from ks8842_tx_timeout_work()
/// on a device opened with DMA). On the failure exits the kill now meets a
/// tasklet that is set up and was never scheduled, and returns at once, as
/// it did on the zeroed one.
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4. A per-driver patch: it
//  rewrites one tasklet form into another, which the generic rules convert.
// Files: drivers/net/ethernet/micrel/ks8842.c
// Options: --no-includes --include-headers

virtual patch

@late_setup depends on patch@
identifier fn = ks8842_alloc_dma_bufs;
expression T, C;
@@
fn(...)
{
  ...
  tasklet_setup(T, C);
  ...
}

@early_setup depends on patch@
identifier fn = ks8842_alloc_dma_bufs;
expression late_setup.T, late_setup.C;
@@
fn(...)
{
  ...
  sg_init_table(...);
+ tasklet_setup(T, C);
  ...
- tasklet_setup(T, C);
  ...
}
