// SPDX-License-Identifier: GPL-2.0
/*
 * dccp's open-coded schedule: a socket reference taken only when the
 * tasklet gets queued. queue_work() says whether it queued, so the
 * reference is taken first and given back when it was already pending.
 */
#include <linux/interrupt.h>
#include <net/sock.h>

struct xsock {
	struct sock sk;
	struct work_struct xmitlet;
};

static void xsock_tasklet_schedule(struct sock *sk)
{
	struct work_struct *t = &((struct xsock *)sk)->xmitlet;

	sock_hold(sk);
	if (!queue_work(system_bh_wq, t))
		sock_put(sk);
}

static void xsock_write_xmitlet(struct work_struct *work)
{
	struct xsock *xs = from_work(xs, work, xmitlet);

	sock_put(&xs->sk);
}

static void xsock_init(struct xsock *xs)
{
	INIT_WORK(&xs->xmitlet, xsock_write_xmitlet);
}
