// SPDX-License-Identifier: GPL-2.0
/*
 * A legacy callback that takes void *, passed through a (void *) cast
 * (ibmvfc, ibmvscsi, qat's pf2vf): data is the container, so the callback
 * takes the work item and from_work() finds the container; the cast goes.
 */
#include <linux/interrupt.h>

struct vfc_host {
	struct work_struct tasklet;
	int pending;
};

static void vfc_tasklet(struct work_struct *work)
{
	struct vfc_host *vhost = from_work(vhost, work, tasklet);

	vhost->pending = 0;
}

static int vfc_probe(struct vfc_host *vhost)
{
	INIT_WORK(&vhost->tasklet, vfc_tasklet);
	return 0;
}

static void vfc_remove(struct vfc_host *vhost)
{
	flush_work(&vhost->tasklet);
}
