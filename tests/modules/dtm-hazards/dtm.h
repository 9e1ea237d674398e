/* SPDX-License-Identifier: GPL-2.0-only */
/* dtm_hazards: the shapes no generic analysis may convert silently. */
#ifndef DTM_HAZARDS_H
#define DTM_HAZARDS_H

#include <linux/interrupt.h>
#include <linux/pci.h>

struct dtm_port {
	struct tasklet_struct tx_bh;
	bool running;
	unsigned int txq;
};

struct dtm_card {
	struct tasklet_struct err_bh;
	bool dead;
};

struct dtm_ring {
	struct tasklet_struct poll_bh;
	unsigned int head;
};

void dtm_port_kick(void);
void dtm_port_reconfigure(unsigned int txq);
void dtm_port_setup(void);
void dtm_port_teardown(void);
int dtm_card_probe(struct pci_dev *pdev, struct dtm_card *c);
void dtm_ring_kick(struct dtm_ring __percpu *rings);
void dtm_ring_reset(struct dtm_ring *r);
struct dtm_ring __percpu *dtm_ring_alloc(void);

#endif
