// SPDX-License-Identifier: GPL-2.0
/* A void * legacy callback that also passes its raw argument on. */
#include <linux/interrupt.h>

struct vfc_host {
	struct tasklet_struct tasklet;
	int pending;
};

static void vfc_log(void *cookie);

static void vfc_tasklet(void *data)
{
	struct vfc_host *vhost = data;

	vfc_log(data);
	vhost->pending = 0;
}

static int vfc_probe(struct vfc_host *vhost)
{
	tasklet_init(&vhost->tasklet, (void *)vfc_tasklet, (unsigned long)vhost);
	return 0;
}
