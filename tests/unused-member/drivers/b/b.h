/* SPDX-License-Identifier: GPL-2.0 */
#include <linux/interrupt.h>

struct b_nq {
	struct tasklet_struct nq_tasklet;
	int budget;
};
