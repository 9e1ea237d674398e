// SPDX-License-Identifier: GPL-2.0
/*
 * An error unwind that reaches tasklet_kill() from before the init (the
 * ibmvscsi_tgt probe shape): harmless on a zeroed tasklet, a WARN from
 * cancel_work_sync() on a never-initialised work item.
 */
#include <linux/interrupt.h>
#include <linux/slab.h>

struct tgt {
	struct tasklet_struct work_task;
	void *buf;
};

static void tgt_handle(struct tasklet_struct *t)
{
	struct tgt *v = from_tasklet(v, t, work_task);

	kfree(v->buf);
}

static int tgt_probe(struct tgt *v)
{
	int rc = -ENOMEM;

	v->buf = kzalloc(64, GFP_KERNEL);
	if (!v->buf)
		goto destroy_queue;
	tasklet_setup(&v->work_task, tgt_handle);
	rc = tgt_start(v);
	if (rc)
		goto destroy_queue;
	return 0;

destroy_queue:
	tasklet_kill(&v->work_task);
	return rc;
}
