# SPDX-License-Identifier: GPL-2.0-only
"""The comments that name the tasklet API, rewritten per site: one table.

Each entry is a comment (or the part of one) of a file of Linux 6.12.118
or 7.3.4 that names a tasklet API identifier, and the words that replace
it, written for that site and read against the code it describes. A
file's entry is applied to it (ctext.comments.edit: only inside a
comment, only where the old text occurs exactly once):

- in its driver's patch, when the file is converted (fixups.after_spatch):
  the comment then describes the work item the patch made;
- in the core removal (output.tasklet_free), when the file never used the
  API: the comment named what the removal takes away.

Why no mechanical rename: the same name needs different words at different
sites. "before tasklet_schedule()" can become "before queue_work()", but
usbnet's "schedule_work() fails, but tasklet_schedule() doesn't" would
become a false statement (queue_work() fails as schedule_work() does), and
"for struct tasklet_struct" after an #include would name a type that
header does not define. A comment this table does not know stays as it
is, and make tasklet-free-tree counts its file.

i915's own helpers (cocci/drivers/i915.patch) name no API in the comments
they add; that patch is written so.
"""

from __future__ import annotations

from ...ctext import comments

_USBNET_OLD = ("/* some work can't be done in tasklets, so we use keventd\n"
               " *\n"
               " * NOTE:  annoying asymmetry:  if it's active, schedule_work() fails,\n"
               " * but tasklet_schedule() doesn't.{sep}hope the failure is rare.\n")
_USBNET_NEW = ("/* some work can't be done in BH context, so we use keventd\n"
               " *\n"
               " * NOTE:  if it's active, schedule_work() fails.  hope the failure is rare.\n")

TABLE: dict[str, tuple[tuple[str, str], ...]] = {
    # the cur_tx++ and mb() that follow come before the queue_work() of tx_tasklet
    "drivers/net/ethernet/dlink/sundance.c": ((
        "/* Increment cur_tx before tasklet_schedule() */",
        "/* Increment cur_tx before queue_work() */"),),
    # hv_vss_pre_resume() calls enable_work(&channel->callback_event)
    "drivers/hv/hv_snapshot.c": ((
        "/* tasklet_enable() will be called in hv_vss_pre_resume(). */",
        "/* enable_work() will be called in hv_vss_pre_resume(). */"),),
    # the enable_work() below: set_work_pool_and_clear_pending() ends in smp_mb()
    "drivers/hv/vmbus_drv.c": ((
        "/* The tasklet_enable() takes care of providing a memory barrier */",
        "/* enable_work() takes care of providing a memory barrier */"),),
    # usbnet (a user in 6.12, BH work since 6.9) and lan78xx (NAPI) defer to
    # keventd what cannot run in BH context; queue_work() on the BH queue
    # fails on a pending item as schedule_work() does: no asymmetry is left
    "drivers/net/usb/usbnet.c": ((_USBNET_OLD.format(sep="  "), _USBNET_NEW),),
    "drivers/net/usb/lan78xx.c": ((_USBNET_OLD.format(sep="\t"), _USBNET_NEW),),
    # the reason given for the #include names a removed type: the reason goes
    "drivers/staging/rtl8723bs/include/osdep_service_linux.h": ((
        "#include <linux/interrupt.h>\t/*  for struct tasklet_struct */",
        "#include <linux/interrupt.h>"),),
    # 6.12: the PREEMPT_RT wait names the removed function it was copied from
    "kernel/workqueue.c": ((
        "\t\t\t * than doing the BH disable/enable dance for nothing.\n"
        "\t\t\t * This is copied from\n"
        "\t\t\t * kernel/softirq.c::tasklet_unlock_spin_wait().\n",
        "\t\t\t * than doing the BH disable/enable dance for nothing.\n"),),
}


def rewrite(path: str, text: str) -> str:
    """text with the table's comment rewrites of path applied where they
    are found (another version of the file keeps its comments)."""
    return comments.edit(text, TABLE.get(path, ()))[0]
