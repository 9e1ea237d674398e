// SPDX-License-Identifier: GPL-2.0
/*
 * A debugger header that once passed a tasklet to its arch hooks: the
 * forward declaration outlived the last user, and nothing else in the
 * file names the tasklet API. The declaration goes; struct tasklet_struct
 * in this comment stays.
 */
#include <linux/types.h>

struct pt_regs;
struct task_struct;

extern int dbg_skip_exception(int exception, struct pt_regs *regs);
extern void dbg_roundup_cpus(struct task_struct *owner);
