/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PM8001_SAS_H_
#define _PM8001_SAS_H_

#include <linux/interrupt.h>

#define PM8001_MAX_MSIX_VEC	64

struct pm8001_hba_info;

struct isr_param {
	struct pm8001_hba_info *drv_inst;
	u32 irq_id;
};
struct pm8001_hba_info {
	char			name[16];
	struct tasklet_struct	tasklet[PM8001_MAX_MSIX_VEC];
	u32			logging_level;
	struct isr_param irq_vector[PM8001_MAX_MSIX_VEC];
};

#endif
