// SPDX-License-Identifier: GPL-2.0
/*
 * The tasklet sits in a member struct of the container, and data is the
 * container (aic94xx's seq.dl_tasklet): from_work() takes the member path.
 */
#include <linux/interrupt.h>

struct seq_data {
	struct work_struct dl_tasklet;
	int pending;
};

struct hba {
	struct seq_data seq;
	int irqs;
};

static void hba_dl_tasklet_handler(struct work_struct *work)
{
	struct hba *hba = from_work(hba, work, seq.dl_tasklet);

	hba->seq.pending = 0;
}

static void hba_init_seq(struct hba *hba)
{
	INIT_WORK(&hba->seq.dl_tasklet, hba_dl_tasklet_handler);
}

static void hba_stop(struct hba *hba)
{
	flush_work(&hba->seq.dl_tasklet);
}
