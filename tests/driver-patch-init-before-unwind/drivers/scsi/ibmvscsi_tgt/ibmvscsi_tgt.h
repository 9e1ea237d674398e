/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __IBMVSCSI_TGT_H
#define __IBMVSCSI_TGT_H

#include <linux/interrupt.h>

struct scsi_info {
	struct vio_dev *dma_dev;
	void *map_buf;
	dma_addr_t map_ioba;
	struct workqueue_struct *work_q;
	struct tasklet_struct work_task;
};

#endif
