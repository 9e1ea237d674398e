// SPDX-License-Identifier: GPL-2.0
/*
 * Callbacks with kernel-doc comments (dccp's xmitlet, ibmvfc's tasklet):
 * the @name: line follows the parameter to 'work', so kernel-doc does not
 * report a missing and an excess parameter; a comment that is not right
 * above the function is left alone.
 */
#include <linux/interrupt.h>

struct xsock {
	struct work_struct xmitlet;
	struct work_struct rxlet;
	int sent;
};

/* @t: not kernel-doc of the callback below, left as it is */
int xsock_count;

/**
 * xsock_write_xmitlet  -  dequeue packets
 * @work: the work item
 */
static void xsock_write_xmitlet(struct work_struct *work)
{
	struct xsock *xs = from_work(xs, work, xmitlet);

	xs->sent++;
}

/**
 * xsock_rx - receive bottom half
 * @work: the work item
 */
static void xsock_rx(struct work_struct *work)
{
	struct xsock *xs = from_work(xs, work, rxlet);

	xs->sent = 0;
}

static void xsock_init(struct xsock *xs)
{
	INIT_WORK(&xs->xmitlet, xsock_write_xmitlet);
	INIT_WORK(&xs->rxlet, xsock_rx);
}
