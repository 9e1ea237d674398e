/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * One global tasklet whose data each controller's start points at itself,
 * reached through a pointer member and scheduled only while its state is
 * 0: cocci/drivers/fhci.cocci makes it a member of the controller, set up
 * and killed in fhci-hcd.c, which names no tasklet API before.
 */
#ifndef __FHCI_H
#define __FHCI_H

#include <linux/interrupt.h>
#include <linux/spinlock.h>
#include <linux/usb/hcd.h>
#include <asm/fsl_gtm.h>

struct fhci_controller_list {
	struct list_head done_list;
};

struct fhci_hcd {
	spinlock_t lock;
	struct gtm_timer *timer;
	struct fhci_controller_list *hc_list;
	struct tasklet_struct *process_done_task; /* tasklet for done list */
};

static inline struct usb_hcd *fhci_to_hcd(struct fhci_hcd *fhci)
{
	return container_of((void *)fhci, struct usb_hcd, hcd_priv);
}

/* fhci-sched.c */
extern struct tasklet_struct fhci_tasklet;
u32 fhci_transfer_confirm_callback(struct fhci_hcd *fhci);

#endif /* __FHCI_H */
