// SPDX-License-Identifier: GPL-2.0
#include "cptvf.h"

static void process_pending_queue(struct cptvf *cptvf)
{
	struct cptvf_pentry *pentry;
	int i;

	for (i = 0; i < ARRAY_SIZE(cptvf->pentry); i++) {
		pentry = &cptvf->pentry[i];
		if (!pentry->busy)
			continue;
		pentry->busy = false;
		pentry->callback(0, pentry->arg);
	}
}

void cptvf_post_process(struct cptvf_wqe *wqe)
{
	process_pending_queue(wqe->cptvf);
}
