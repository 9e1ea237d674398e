// SPDX-License-Identifier: GPL-2.0
/* One tasklet scheduled both ways: two workqueues would break serialization. */
#include <linux/interrupt.h>

struct uhci {
	struct tasklet_struct bh;
};

static void uhci_urgent(struct uhci *u)
{
	tasklet_hi_schedule(&u->bh);
}

static void uhci_later(struct uhci *u)
{
	tasklet_schedule(&u->bh);
}
