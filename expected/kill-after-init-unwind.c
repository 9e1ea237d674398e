// SPDX-License-Identifier: GPL-2.0
/*
 * An error unwind whose tasklet_kill() is reached only after the init:
 * the labels before the init skip it, the file converts.
 */
#include <linux/interrupt.h>
#include <linux/slab.h>

struct tgt {
	struct work_struct work_task;
	void *buf;
};

static void tgt_handle(struct work_struct *work)
{
	struct tgt *v = from_work(v, work, work_task);

	kfree(v->buf);
}

static int tgt_probe(struct tgt *v)
{
	int rc = -ENOMEM;

	v->buf = kzalloc(64, GFP_KERNEL);
	if (!v->buf)
		goto out;
	INIT_WORK(&v->work_task, tgt_handle);
	rc = tgt_start(v);
	if (rc)
		goto kill;
	return 0;

kill:
	flush_work(&v->work_task);
	kfree(v->buf);
out:
	return rc;
}
