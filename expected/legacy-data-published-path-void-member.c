// SPDX-License-Identifier: GPL-2.0
/*
 * As legacy-data-published-path (a VF's per-queue tasklets in an object
 * published in vf->wqe_info after each queue's back pointer is set), but
 * the back pointer is a void *, as in a driver that keeps the VF opaque
 * there: the callback names the VF first (struct vf_dev *vf = wqe->vf),
 * then reads vf->wqe_info; still no field and no unsigned long.
 */
#include <linux/interrupt.h>
#include <linux/slab.h>

#define VF_NUM_QS 4

struct vf_dev;

struct vf_wqe {
	struct work_struct twork;
	void *vf;
	u32 qno;
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
	struct vf_dev *vf = wqe->vf;
	struct vf_wqe_info *cwqe_info = vf->wqe_info;

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
		cwqe_info->vq_wqe[i].qno = i;
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
