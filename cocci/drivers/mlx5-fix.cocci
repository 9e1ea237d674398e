// SPDX-License-Identifier: GPL-2.0-only
/// mlx5_fpga_conn_destroy() clears qp.active, disables the CQ tasklet and
/// waits for the completion handler with synchronize_irq(), and then
/// mlx5_fpga_conn_destroy_cq() disables it once more and kills it. The
/// tasklet is scheduled by mlx5_fpga_conn_cqes(), from the CQ completion
/// handler and from the tasklet itself when it used its whole budget. A run
/// that is pending when the first tasklet_disable() is called, or one
/// scheduled after it by a completion handler that had already passed its
/// qp.active check, never runs, because the tasklet is disabled;
/// tasklet_kill() waits for that run to finish, so the connection teardown
/// hangs, with the softirq requeueing the disabled tasklet for ever. The
/// error exits of mlx5_fpga_conn_create() reach the same disable-then-kill
/// in mlx5_fpga_conn_destroy_cq().
///
/// Kill the tasklet instead of disabling it: mlx5_fpga_conn_destroy() now
/// kills it after synchronize_irq(), and mlx5_fpga_conn_destroy_cq() only
/// kills it. Once qp.active is false neither the completion handler nor the
/// tasklet schedules it (both return before mlx5_fpga_conn_cqes()), and
/// synchronize_irq() has waited for a handler that was past the check, so
/// the kill lets a pending run go ahead (it returns at once) and waits for a
/// running one, as the disable did, and nothing schedules the tasklet after
/// it while the QP and the CQ are destroyed.
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4 (the same code in both).
//  A fix on its own, before the conversion of the driver.
// Files: drivers/net/ethernet/mellanox/mlx5/core/fpga/conn.c
// Options: --no-includes --include-headers
// Fix: FPGA, Kill the CQ tasklet instead of disabling it on teardown
// Fixes: 537a50574175 ("net/mlx5: FPGA, Add high-speed connection routines")

virtual patch

@destroy_kill depends on patch@
identifier fn = mlx5_fpga_conn_destroy;
expression C, T, Q;
symbol false;
@@
fn(...)
{
  C.active = false;
- tasklet_disable(T);
  synchronize_irq(Q);
+ tasklet_kill(T);
  ...
}

@destroy_cq_kill depends on patch@
identifier fn = mlx5_fpga_conn_destroy_cq;
expression T;
@@
fn(...)
{
- tasklet_disable(T);
  tasklet_kill(T);
  ...
}
