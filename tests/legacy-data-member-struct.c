// SPDX-License-Identifier: GPL-2.0
/*
 * The tasklet sits in a member struct of the container, and data is the
 * container (aic94xx's seq.dl_tasklet): from_work() takes the member path.
 */
#include <linux/interrupt.h>

struct seq_data {
	struct tasklet_struct dl_tasklet;
	int pending;
};

struct hba {
	struct seq_data seq;
	int irqs;
};

static void hba_dl_tasklet_handler(unsigned long data)
{
	struct hba *hba = (struct hba *)data;

	hba->seq.pending = 0;
}

static void hba_init_seq(struct hba *hba)
{
	tasklet_init(&hba->seq.dl_tasklet, hba_dl_tasklet_handler,
		     (unsigned long)hba);
}

static void hba_stop(struct hba *hba)
{
	tasklet_kill(&hba->seq.dl_tasklet);
}
