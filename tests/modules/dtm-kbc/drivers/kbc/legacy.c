// SPDX-License-Identifier: GPL-2.0-only
/*
 * The legacy mouse port: its tasklet is declared disabled and enabled at
 * open, disabled at close: the count goes up and down for as long as the
 * module is loaded, so nothing proves a work item declared enabled does
 * the same (refused, with that reason).
 */
#include <kbc/kbc.h>

static void kbc_legacy_bh(unsigned long data);
static DECLARE_TASKLET_DISABLED_OLD(kbc_legacy_tasklet, kbc_legacy_bh);

static void kbc_legacy_bh(unsigned long data)
{
}

int kbc_legacy_open(void)
{
	tasklet_enable(&kbc_legacy_tasklet);
	tasklet_schedule(&kbc_legacy_tasklet);
	return 0;
}

void kbc_legacy_close(void)
{
	tasklet_disable(&kbc_legacy_tasklet);
}
