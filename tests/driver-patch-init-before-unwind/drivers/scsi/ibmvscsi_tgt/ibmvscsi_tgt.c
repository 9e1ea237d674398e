// SPDX-License-Identifier: GPL-2.0
/*
 * The probe unwinds through a kill of the tasklet from failures that come
 * before its init: cocci/drivers/ibmvscsis.cocci moves the init up.
 */
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/slab.h>
#include <asm/vio.h>
#include "ibmvscsi_tgt.h"

static int ibmvscsis_create_command_q(struct scsi_info *vscsi, int num);
static void ibmvscsis_destroy_command_q(struct scsi_info *vscsi);

static irqreturn_t ibmvscsis_interrupt(int dummy, void *data)
{
	struct scsi_info *vscsi = data;

	vio_disable_interrupts(vscsi->dma_dev);
	tasklet_schedule(&vscsi->work_task);

	return IRQ_HANDLED;
}

static void ibmvscsis_handle_crq(unsigned long data)
{
	struct scsi_info *vscsi = (struct scsi_info *)data;

	vio_enable_interrupts(vscsi->dma_dev);
}

static int ibmvscsis_probe(struct vio_dev *vdev,
			   const struct vio_device_id *id)
{
	struct scsi_info *vscsi;
	int rc;

	vscsi = kzalloc(sizeof(*vscsi), GFP_KERNEL);
	if (!vscsi)
		return -ENOMEM;
	vscsi->dma_dev = vdev;

	rc = ibmvscsis_create_command_q(vscsi, 256);
	if (rc)
		goto free_adapter;

	vscsi->map_buf = kzalloc(PAGE_SIZE, GFP_KERNEL);
	if (!vscsi->map_buf) {
		rc = -ENOMEM;
		goto destroy_queue;
	}

	vscsi->map_ioba = dma_map_single(&vdev->dev, vscsi->map_buf, PAGE_SIZE,
					 DMA_BIDIRECTIONAL);
	if (dma_mapping_error(&vdev->dev, vscsi->map_ioba)) {
		rc = -ENOMEM;
		goto free_buf;
	}

	tasklet_init(&vscsi->work_task, ibmvscsis_handle_crq,
		     (unsigned long)vscsi);

	vscsi->work_q = alloc_workqueue("ibmvscsis%s", WQ_MEM_RECLAIM, 1,
					dev_name(&vdev->dev));
	if (!vscsi->work_q) {
		rc = -ENOMEM;
		goto unmap_buf;
	}

	rc = request_irq(vdev->irq, ibmvscsis_interrupt, 0, "ibmvscsis", vscsi);
	if (rc)
		goto destroy_WQ;

	dev_set_drvdata(&vdev->dev, vscsi);
	return 0;

destroy_WQ:
	destroy_workqueue(vscsi->work_q);
unmap_buf:
	dma_unmap_single(&vdev->dev, vscsi->map_ioba, PAGE_SIZE,
			 DMA_BIDIRECTIONAL);
free_buf:
	kfree(vscsi->map_buf);
destroy_queue:
	tasklet_kill(&vscsi->work_task);
	ibmvscsis_destroy_command_q(vscsi);
free_adapter:
	kfree(vscsi);
	return rc;
}

static void ibmvscsis_remove(struct vio_dev *vdev)
{
	struct scsi_info *vscsi = dev_get_drvdata(&vdev->dev);

	vio_disable_interrupts(vdev);
	free_irq(vdev->irq, vscsi);
	destroy_workqueue(vscsi->work_q);
	dma_unmap_single(&vdev->dev, vscsi->map_ioba, PAGE_SIZE,
			 DMA_BIDIRECTIONAL);
	kfree(vscsi->map_buf);
	tasklet_kill(&vscsi->work_task);
	ibmvscsis_destroy_command_q(vscsi);
	kfree(vscsi);
}

static struct vio_driver ibmvscsis_driver = {
	.name = "ibmvscsis",
	.probe = ibmvscsis_probe,
	.remove = ibmvscsis_remove,
};
