/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A struct with a tasklet member that no code of the tree names
 * (ath9k_htc's swba_tasklet, bng_re's nq_tasklet): it is removed, with
 * its kernel-doc line, while the member beside it converts. Another
 * driver's struct has a member of the same name (bnxt_re's nq_tasklet),
 * which is no use of this one. A member that only a macro of another
 * header names (done_tasklet) may be used through it: it converts.
 */
#include <linux/interrupt.h>

/**
 * struct a_priv - a device
 * @rx_tasklet: receive processing
 * @nq_tasklet: notification queue
 * @done_tasklet: completions
 * @irq: the interrupt
 */
struct a_priv {
	struct tasklet_struct rx_tasklet;
	struct tasklet_struct nq_tasklet;
	struct tasklet_struct done_tasklet;
	int irq;
};
