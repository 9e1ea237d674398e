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
	struct tasklet_struct xmitlet;
};

static void xsock_tasklet_schedule(struct sock *sk)
{
	struct tasklet_struct *t = &((struct xsock *)sk)->xmitlet;

	if (!test_and_set_bit(TASKLET_STATE_SCHED, &t->state)) {
		sock_hold(sk);
		__tasklet_schedule(t);
	}
}

static void xsock_write_xmitlet(struct tasklet_struct *t)
{
	struct xsock *xs = from_tasklet(xs, t, xmitlet);

	sock_put(&xs->sk);
}

static void xsock_init(struct xsock *xs)
{
	tasklet_setup(&xs->xmitlet, xsock_write_xmitlet);
}
