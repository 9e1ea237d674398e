// SPDX-License-Identifier: GPL-2.0
/*
 * A crypto VF sets up one tasklet per queue inside an object it has just
 * allocated and gives each the whole object as its data. It then sets each
 * queue's back pointer to the VF and only after that publishes the object
 * in the VF (vf->wqe_info), where the interrupt handler finds the queue to
 * schedule. The data is therefore always wqe->vf->wqe_info: the callback
 * reads it from there, with no field and no unsigned long. The teardown
 * clears vf->wqe_info only after freeing the object.
 */
#include <linux/interrupt.h>
#include <linux/slab.h>

#define VF_NUM_QS 4

struct vf_dev;

struct vf_wqe {
	struct work_struct twork;
	struct vf_dev *vf;
};

struct vf_wqe_info {
	struct vf_wqe vq_wqe[VF_NUM_QS];
};

struct vf_dev {
	void *wqe_info;
	int num_queues;
};

void vf_post_process(struct vf_wqe *wqe);

static void vq_work_handler(struct work_struct *work)
{
	struct vf_wqe *wqe = from_work(wqe, work, twork);
	struct vf_wqe_info *cwqe_info = wqe->vf->wqe_info;

	vf_post_process(&cwqe_info->vq_wqe[0]);
}

static int init_worker_threads(struct vf_dev *vf)
{
	struct vf_wqe_info *cwqe_info;
	int i;

	cwqe_info = kzalloc(sizeof(*cwqe_info), GFP_KERNEL);
	if (!cwqe_info)
		return -ENOMEM;

	for (i = 0; i < vf->num_queues; i++) {
		INIT_WORK(&cwqe_info->vq_wqe[i].twork, vq_work_handler);
		cwqe_info->vq_wqe[i].vf = vf;
	}
	vf->wqe_info = cwqe_info;

	return 0;
}

static void cleanup_worker_threads(struct vf_dev *vf)
{
	struct vf_wqe_info *cwqe_info;
	int i;

	cwqe_info = (struct vf_wqe_info *)vf->wqe_info;
	if (!cwqe_info)
		return;

	for (i = 0; i < vf->num_queues; i++)
		flush_work(&cwqe_info->vq_wqe[i].twork);

	kfree(cwqe_info);
	vf->wqe_info = NULL;
}

static irqreturn_t vf_done_intr_handler(int irq, void *vf_irq)
{
	struct vf_dev *vf = vf_irq;
	struct vf_wqe *wqe;

	if (!vf->wqe_info)
		return IRQ_NONE;
	wqe = &((struct vf_wqe_info *)vf->wqe_info)->vq_wqe[0];
	queue_work(system_bh_highpri_wq, &wqe->twork);
	return IRQ_HANDLED;
}
