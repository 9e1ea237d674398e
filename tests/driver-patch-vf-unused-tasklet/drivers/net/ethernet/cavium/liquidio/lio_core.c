// SPDX-License-Identifier: GPL-2.0
/* Shared by the PF and the VF driver: an RX interrupt on a queue that is
 * not polled by NAPI goes to the DROQ bottom half, which only the PF has.
 */
#include <linux/interrupt.h>
#include "octeon_device.h"
#include "octeon_main.h"

int liquidio_schedule_msix_droq_pkt_handler(struct octeon_device *oct, u64 ret)
{
	struct octeon_device_priv *oct_priv = oct->priv;

	if (ret & MSIX_PO_INT) {
		if (OCTEON_CN23XX_VF(oct))
			dev_err(&oct->pci_dev->dev,
				"no rx expected outside NAPI on a vf\n");
		tasklet_schedule(&oct_priv->droq_tasklet);
		return 1;
	}
	return 0;
}
