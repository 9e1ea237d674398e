// SPDX-License-Identifier: GPL-2.0
/*
 * A SCSI host adapter shape (megaraid_sas): the interrupt handler defers
 * the completion of commands to a tasklet, which hands them back to the
 * SCSI midlayer with scsi_done().
 */
#include <linux/interrupt.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

struct fake_hba {
	struct Scsi_Host *shost;
	struct work_struct isr_tasklet;
	struct scsi_cmnd *done_cmd;
};

static void fake_complete_cmd_dpc(struct work_struct *work)
{
	struct fake_hba *hba = from_work(hba, work, isr_tasklet);

	if (hba->done_cmd)
		scsi_done(hba->done_cmd);
}

static irqreturn_t fake_isr(int irq, void *data)
{
	struct fake_hba *hba = data;

	queue_work(system_bh_wq, &hba->isr_tasklet);
	return IRQ_HANDLED;
}

static int fake_probe(struct fake_hba *hba, struct device *dev)
{
	INIT_WORK(&hba->isr_tasklet, fake_complete_cmd_dpc);
	return scsi_add_host(hba->shost, dev);
}

static void fake_remove(struct fake_hba *hba)
{
	scsi_remove_host(hba->shost);
	flush_work(&hba->isr_tasklet);
}
