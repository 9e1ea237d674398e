// SPDX-License-Identifier: GPL-2.0
/* A void * callback behind a (void *) cast, its tasklet in a member struct (qat vf). */
#include <linux/interrupt.h>

struct accel_dev {
	int id;
	union {
		struct {
			struct work_struct pf2vf_bh_tasklet;
			int msg;
		} vf;
		int pf;
	};
};

static void pf2vf_bh_handler(struct work_struct *work)
{
	struct accel_dev *accel_dev = from_work(accel_dev, work,
						vf.pf2vf_bh_tasklet);

	pr_debug("dev %d\n", accel_dev->id);
}

static void setup_pf2vf_bh(struct accel_dev *accel_dev)
{
	INIT_WORK(&accel_dev->vf.pf2vf_bh_tasklet, pf2vf_bh_handler);
}

static void cleanup_pf2vf_bh(struct accel_dev *accel_dev)
{
	flush_work(&accel_dev->vf.pf2vf_bh_tasklet);
}
