// SPDX-License-Identifier: GPL-2.0
/* A void * callback behind a (void *) cast, its tasklet in a member struct (qat vf). */
#include <linux/interrupt.h>

struct accel_dev {
	int id;
	union {
		struct {
			struct tasklet_struct pf2vf_bh_tasklet;
			int msg;
		} vf;
		int pf;
	};
};

static void pf2vf_bh_handler(void *data)
{
	struct accel_dev *accel_dev = data;

	pr_debug("dev %d\n", accel_dev->id);
}

static void setup_pf2vf_bh(struct accel_dev *accel_dev)
{
	tasklet_init(&accel_dev->vf.pf2vf_bh_tasklet,
		     (void *)pf2vf_bh_handler, (unsigned long)accel_dev);
}

static void cleanup_pf2vf_bh(struct accel_dev *accel_dev)
{
	tasklet_kill(&accel_dev->vf.pf2vf_bh_tasklet);
}
