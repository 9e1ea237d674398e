# SPDX-License-Identifier: GPL-2.0-only
"""The words of the tasklet core removal: comments and Documentation/.

tasklet_free removes the code; what is left still teaches tasklets
in two comments (include/linux/interrupt.h tells new code to use them,
kernel/softirq.c lists them as a softirq user), and two files under
Documentation/ name the API's functions (admin-guide's advice on per-CPU
kthreads, and the megaraid_sas ChangeLog). Each edit is written out here,
old text to new, and must match exactly once where its file exists; a
tree whose words differ stops the command with the reason, as the code
edits do. doc_leftovers() then checks every file under Documentation/.

The names kept on purpose: TASKLET_SOFTIRQ and the "TASKLET" softirq name
(the vector stays and runs the BH workqueues; its name is in
/proc/softirqs and the irq tracepoints), and the tasklet_hi_action frames
of a stack trace quoted in Documentation/trace/histogram.rst (a recorded
output, and not an API function).
"""

from __future__ import annotations

import os
from pathlib import Path

from ...ctext.sources import read_text
from ...ctext.tasklet import API_FUNCS_RE
from ...errors import CoreError

INTERRUPT_H, SOFTIRQ_C = "include/linux/interrupt.h", "kernel/softirq.c"

# Comments of the core files, in the text the code removal leaves.
COMMENTS: dict[str, tuple[tuple[str, str], ...]] = {
    INTERRUPT_H: ((
        "   frequency threaded job scheduling. For almost all the purposes\n"
        "   tasklets are more than enough. F.e. all serial device BHs et\n"
        "   al. should be converted to tasklets, not to softirqs.\n",
        "   frequency threaded job scheduling. For almost all the purposes\n"
        "   a work item on a BH workqueue (system_bh_wq, system_bh_highpri_wq)\n"
        "   is more than enough.\n"),),
    SOFTIRQ_C: ((
        "   - Tasklets: serialized wrt itself.\n",
        "   - BH workqueues (TASKLET_SOFTIRQ and HI_SOFTIRQ): a work item is\n"
        "     serialized wrt itself.\n"),),
}

# Documentation/ files that name the API's functions.
DOCS: dict[str, tuple[tuple[str, str], ...]] = {
    "Documentation/admin-guide/kernel-per-CPU-kthreads.rst": ((
        "1.\tAvoid use of drivers that use tasklets.  (Such drivers will contain\n"
        "\tcalls to things like tasklet_schedule().)\n"
        "2.\tConvert all drivers that you must use from tasklets to workqueues.\n"
        "3.\tForce interrupts for drivers using tasklets onto other CPUs,\n",
        "1.\tAvoid use of drivers that queue work on the BH workqueues.  (Such\n"
        "\tdrivers will contain calls like queue_work(system_bh_wq, ...).)\n"
        "2.\tConvert all drivers that you must use from BH workqueues to\n"
        "\tordinary workqueues.\n"
        "3.\tForce interrupts for drivers using BH workqueues onto other CPUs,\n"),),
    "Documentation/scsi/ChangeLog.megaraid_sas": (
        ("    4. Call tasklet_schedule() even if outbound_intr_status == 0 for MFI based\n"
         "       boards in MSI-X mode.\n",
         "    4. Schedule the tasklet even if outbound_intr_status == 0 for MFI based\n"
         "       boards in MSI-X mode.\n"),
        ("    10. Fix tasklet_init() in megasas_init_fw() to use instancet->tasklet.\n",
         "    10. Fix the tasklet set-up in megasas_init_fw() to use instancet->tasklet.\n")),
}



def edit(path: str, text: str, edits: tuple[tuple[str, str], ...]) -> str:
    """text with each (old, new) of edits replaced; each old must be there
    exactly once."""
    for old, new in edits:
        n = text.count(old)
        if n != 1:
            raise CoreError(f"{path}: expected the text {old.splitlines()[0].strip()!r} once, "
                            f"found it {n} times: not the tasklet core's words this tool knows")
        text = text.replace(old, new)
    return text


def comments(path: str, text: str) -> str:
    """A core file's text (after the code removal) with its comments that
    teach tasklets reworded."""
    return edit(path, text, COMMENTS.get(path, ()))


def doc_names(text: str) -> list[str]:
    """The API functions and macros text names (struct tasklet_struct
    aside, which prose about the softirq vector may name)."""
    return sorted(set(API_FUNCS_RE.findall(text)))


def docs(kdir: Path) -> dict[str, tuple[str, str]]:
    """path -> (old, new) of each Documentation/ file of DOCS that names
    the API in this tree."""
    out = {}
    for path, edits in DOCS.items():
        f = kdir / path
        if not f.is_file():
            continue
        old = read_text(f)
        if doc_names(old):
            out[path] = (old, edit(path, old, edits))
    return out


def doc_leftovers(kdir: Path, edited: dict[str, str] | None = None) -> dict[str, list[str]]:
    """Documentation/ file -> the API functions it still names, with the
    files of edited read as their new text."""
    edited = edited or {}
    left = {}
    top = kdir / "Documentation"
    for dirpath, dirnames, files in os.walk(top):
        dirnames.sort()
        for name in sorted(files):
            rel = os.path.relpath(os.path.join(dirpath, name), kdir).replace(os.sep, "/")
            try:
                text = edited.get(rel) or read_text(Path(dirpath, name))
            except OSError:
                continue
            if "tasklet" in text or "TASKLET" in text:
                names = doc_names(text)
                if names:
                    left[rel] = names
    return left
