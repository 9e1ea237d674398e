/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __BNXT_QPLIB_FP_H__
#define __BNXT_QPLIB_FP_H__

#include <linux/interrupt.h>

struct bnxt_qplib_nq {
	char				*name;
	int				msix_vec;
	struct tasklet_struct		nq_tasklet;
	bool				requested;
	int				budget;
};

void bnxt_qplib_nq_stop_irq(struct bnxt_qplib_nq *nq, bool kill);
int bnxt_qplib_nq_start_irq(struct bnxt_qplib_nq *nq, int nq_indx,
			    int msix_vector, bool need_init);

#endif
