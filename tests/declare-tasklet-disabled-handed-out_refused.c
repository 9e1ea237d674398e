// SPDX-License-Identifier: GPL-2.0
/*
 * The loop controller hands the address of its tasklet, declared disabled,
 * to each registered port (hil_mlc's mlc->tasklet): what the ports do with
 * it is not followed, so the enable at init proves nothing.
 */
#include <linux/interrupt.h>
#include <linux/module.h>

struct lc_port {
	struct tasklet_struct *tasklet;
};

static void lc_process(unsigned long unused);
static DECLARE_TASKLET_DISABLED_OLD(lc_tasklet, lc_process);

static void lc_process(unsigned long unused)
{
}

static void lc_register(struct lc_port *port)
{
	port->tasklet = &lc_tasklet;
}

static int __init lc_init(void)
{
	tasklet_enable(&lc_tasklet);
	return 0;
}

static void __exit lc_exit(void)
{
	tasklet_kill(&lc_tasklet);
}

module_init(lc_init);
module_exit(lc_exit);
