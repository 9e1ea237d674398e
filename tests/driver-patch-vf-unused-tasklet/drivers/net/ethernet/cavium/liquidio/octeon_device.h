/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _OCTEON_DEVICE_H_
#define _OCTEON_DEVICE_H_

#include <linux/netdevice.h>

struct octeon_device {
	struct pci_dev *pci_dev;
	void *priv;
	int is_vf;
	int napi_enabled;
	int running;
};

#define OCTEON_CN23XX_VF(oct)	((oct)->is_vf)
#define MSIX_PO_INT		0x1

int oct_packets_seen(struct octeon_device *oct);
int oct_process_queues(struct octeon_device *oct);

#endif
