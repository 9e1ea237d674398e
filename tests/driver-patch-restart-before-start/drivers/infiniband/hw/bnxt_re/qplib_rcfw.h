/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __BNXT_QPLIB_RCFW_H__
#define __BNXT_QPLIB_RCFW_H__

#include <linux/interrupt.h>

struct bnxt_qplib_creq_ctx {
	struct tasklet_struct		creq_tasklet;
	int				msix_vec;
	bool				requested; /*irq handler installed */
	char				*irq_name;
	u32				events;
};

struct bnxt_qplib_rcfw {
	struct bnxt_qplib_creq_ctx	creq;
};

void bnxt_qplib_rcfw_stop_irq(struct bnxt_qplib_rcfw *rcfw, bool kill);
int bnxt_qplib_rcfw_start_irq(struct bnxt_qplib_rcfw *rcfw, int msix_vector,
			      bool need_init);

#endif
