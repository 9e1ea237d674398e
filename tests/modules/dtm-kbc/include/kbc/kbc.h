/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KBC_H
#define KBC_H

#include <linux/interrupt.h>
#include <linux/platform_device.h>

struct kbc_port {
	struct platform_device *pdev;
	struct tasklet_struct tx_tasklet;
	unsigned char tx_buf[32];
	unsigned int tx_len;
};

extern struct platform_driver kbc_port_driver;
int kbc_legacy_open(void);
void kbc_legacy_close(void);

#endif
