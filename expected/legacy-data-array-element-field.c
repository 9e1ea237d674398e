// SPDX-License-Identifier: GPL-2.0
/*
 * One tasklet per queue, in an array of elements; the data is the owner of
 * the array (cptvf shape). The stored data must go to element i, not 0.
 */
#include <linux/interrupt.h>

#define CPT_NUM_QS_PER_VF 4

struct cptvf_wqe_entry {
	struct work_struct twork;
	unsigned long twork_data;
	int qno;
};

struct cptvf_wqe_info_for_many_queues {
	struct cptvf_wqe_entry vq_wqe[CPT_NUM_QS_PER_VF];
};

static void vq_work_handler_for_queue_completion(struct work_struct *work)
{
	unsigned long data = container_of(work, struct cptvf_wqe_entry, twork)->twork_data;
	struct cptvf_wqe_info_for_many_queues *cwqe_info =
		(struct cptvf_wqe_info_for_many_queues *)data;

	pr_debug("%p\n", cwqe_info);
}

static void init_worker_threads(struct cptvf_wqe_info_for_many_queues *cwqe_info)
{
	int i;

	for (i = 0; i < CPT_NUM_QS_PER_VF; i++) {
		cwqe_info->vq_wqe[i].twork_data = (u64)cwqe_info;
		INIT_WORK(&cwqe_info->vq_wqe[i].twork,
		          vq_work_handler_for_queue_completion);
	}
}

static void cleanup_worker_threads(struct cptvf_wqe_info_for_many_queues *cwqe_info)
{
	int i;

	for (i = 0; i < CPT_NUM_QS_PER_VF; i++)
		flush_work(&cwqe_info->vq_wqe[i].twork);
}
