// SPDX-License-Identifier: GPL-2.0
/*
 * A legacy callback that takes void *, passed through a (void *) cast
 * (ibmvfc, ibmvscsi, qat's pf2vf): data is the container, so the callback
 * takes the work item and from_work() finds the container; the cast goes.
 */
#include <linux/interrupt.h>

struct vfc_host {
	struct tasklet_struct tasklet;
	int pending;
};

static void vfc_tasklet(void *data)
{
	struct vfc_host *vhost = data;

	vhost->pending = 0;
}

static int vfc_probe(struct vfc_host *vhost)
{
	tasklet_init(&vhost->tasklet, (void *)vfc_tasklet, (unsigned long)vhost);
	return 0;
}

static void vfc_remove(struct vfc_host *vhost)
{
	tasklet_kill(&vhost->tasklet);
}
