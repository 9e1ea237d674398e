/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A crypto VF whose done tasklet hands the finished requests to
 * cptvf_post_process() of cptvf_reqmgr.c, which calls each pending
 * entry's callback (set in cptvf_algs.c) and so completes the crypto
 * requests: the kill in .remove must keep a pending run (flush_work(),
 * then cancel_work_sync()), which only a read of the module's other
 * files shows.
 */
#ifndef __CPTVF_H
#define __CPTVF_H

#include <linux/interrupt.h>
#include <linux/pci.h>

struct cptvf_pentry {
	void (*callback)(int status, void *arg);
	void *arg;
	bool busy;
};

struct cptvf_wqe {
	struct tasklet_struct twork;
	struct cptvf *cptvf;
};

struct cptvf {
	struct pci_dev *pdev;
	struct cptvf_wqe wqe;
	struct cptvf_pentry pentry[32];
	void __iomem *reg_base;
};

void cptvf_post_process(struct cptvf_wqe *wqe);
int cptvf_register_algs(void);
void cptvf_unregister_algs(void);

#endif
