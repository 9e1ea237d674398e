// SPDX-License-Identifier: GPL-2.0
/*
 * A comment that names an enable made in another function (the shape of
 * hv_snapshot's suspend and resume): the comment names what that enable
 * became, enable_work().
 */
#include <linux/interrupt.h>
#include <linux/hyperv.h>

struct vss_channel {
	struct tasklet_struct callback_event;
};

static struct vss_channel *recv_channel;

static void vss_on_channel_callback(struct tasklet_struct *t)
{
	struct vss_channel *channel = from_tasklet(channel, t, callback_event);

	pr_debug("vss: channel %p\n", channel);
}

int hv_vss_init(struct vss_channel *channel)
{
	recv_channel = channel;
	tasklet_setup(&channel->callback_event, vss_on_channel_callback);
	return 0;
}

int hv_vss_pre_suspend(void)
{
	struct vss_channel *channel = recv_channel;

	tasklet_disable(&channel->callback_event);

	/* tasklet_enable() will be called in hv_vss_pre_resume(). */
	return 0;
}

int hv_vss_pre_resume(void)
{
	struct vss_channel *channel = recv_channel;

	tasklet_enable(&channel->callback_event);

	return 0;
}
