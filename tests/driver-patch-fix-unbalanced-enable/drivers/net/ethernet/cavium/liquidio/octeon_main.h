/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _OCTEON_MAIN_H_
#define _OCTEON_MAIN_H_

#include <linux/interrupt.h>

struct octeon_device;

struct octeon_device_priv {
	struct tasklet_struct droq_tasklet;
	struct octeon_device *dev;
};

#endif
