// SPDX-License-Identifier: GPL-2.0
/* A connection whose teardown disables its CQ tasklet twice and then
 * kills it: a run still pending at the first disable is never run, and
 * the kill waits for it.
 */
#include <linux/interrupt.h>
#include <linux/slab.h>

struct mlx5_fpga_conn {
	struct {
		bool active;
	} qp;
	struct {
		struct tasklet_struct tasklet;
		int irqn;
	} cq;
};

int mlx5_fpga_conn_cqes(struct mlx5_fpga_conn *conn);
int mlx5_fpga_conn_create_qp(struct mlx5_fpga_conn *conn);
void mlx5_fpga_conn_destroy_qp(struct mlx5_fpga_conn *conn);
void mlx5_core_destroy_cq(struct mlx5_fpga_conn *conn);

static void mlx5_fpga_conn_cq_tasklet(struct tasklet_struct *t)
{
	struct mlx5_fpga_conn *conn = from_tasklet(conn, t, cq.tasklet);

	if (unlikely(!conn->qp.active))
		return;
	if (mlx5_fpga_conn_cqes(conn))
		tasklet_schedule(&conn->cq.tasklet);
}

void mlx5_fpga_conn_cq_complete(struct mlx5_fpga_conn *conn)
{
	if (unlikely(!conn->qp.active))
		return;
	if (mlx5_fpga_conn_cqes(conn))
		tasklet_schedule(&conn->cq.tasklet);
}

static void mlx5_fpga_conn_destroy_cq(struct mlx5_fpga_conn *conn)
{
	tasklet_disable(&conn->cq.tasklet);
	tasklet_kill(&conn->cq.tasklet);
	mlx5_core_destroy_cq(conn);
}

struct mlx5_fpga_conn *mlx5_fpga_conn_create(void)
{
	struct mlx5_fpga_conn *conn = kzalloc(sizeof(*conn), GFP_KERNEL);

	if (!conn)
		return NULL;
	tasklet_setup(&conn->cq.tasklet, mlx5_fpga_conn_cq_tasklet);
	if (mlx5_fpga_conn_create_qp(conn))
		goto err_cq;
	conn->qp.active = true;
	return conn;

err_cq:
	mlx5_fpga_conn_destroy_cq(conn);
	kfree(conn);
	return NULL;
}

void mlx5_fpga_conn_destroy(struct mlx5_fpga_conn *conn)
{
	conn->qp.active = false;
	tasklet_disable(&conn->cq.tasklet);
	synchronize_irq(conn->cq.irqn);

	mlx5_fpga_conn_destroy_qp(conn);
	mlx5_fpga_conn_destroy_cq(conn);
	kfree(conn);
}
