// SPDX-License-Identifier: GPL-2.0
/*
 * The tasklet array and the vector array are not paired index for index:
 * tasklet[i] gets vector[i + 1], so moving the tasklet into the vector
 * would change which item the callback is given.
 */
#include <linux/interrupt.h>

#define NVEC	8

struct vec {
	int id;
};

struct hba {
	struct tasklet_struct tasklet[NVEC];
	struct vec irq_vector[NVEC + 1];
};

static void hba_tasklet(unsigned long opaque)
{
	struct vec *v = (struct vec *)opaque;

	v->id++;
}

static void hba_init(struct hba *h)
{
	int i;

	for (i = 0; i < NVEC; i++)
		tasklet_init(&h->tasklet[i], hba_tasklet,
			     (unsigned long)&h->irq_vector[i + 1]);
}
