// SPDX-License-Identifier: GPL-2.0
/*
 * Callbacks with kernel-doc comments (dccp's xmitlet, ibmvfc's tasklet):
 * the @name: line follows the parameter to 'work', so kernel-doc does not
 * report a missing and an excess parameter; a comment that is not right
 * above the function is left alone.
 */
#include <linux/interrupt.h>

struct xsock {
	struct tasklet_struct xmitlet;
	struct tasklet_struct rxlet;
	int sent;
};

/* @t: not kernel-doc of the callback below, left as it is */
int xsock_count;

/**
 * xsock_write_xmitlet  -  dequeue packets
 * @t: pointer to the tasklet associated with this handler
 */
static void xsock_write_xmitlet(struct tasklet_struct *t)
{
	struct xsock *xs = from_tasklet(xs, t, xmitlet);

	xs->sent++;
}

/**
 * xsock_rx - receive bottom half
 * @data: the xsock
 */
static void xsock_rx(unsigned long data)
{
	struct xsock *xs = (struct xsock *)data;

	xs->sent = 0;
}

static void xsock_init(struct xsock *xs)
{
	tasklet_setup(&xs->xmitlet, xsock_write_xmitlet);
	tasklet_init(&xs->rxlet, xsock_rx, (unsigned long)xs);
}
