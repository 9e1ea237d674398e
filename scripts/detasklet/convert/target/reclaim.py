# SPDX-License-Identifier: GPL-2.0-only
"""TARGET=thread and memory reclaim: a driver that completes block I/O
keeps its work on the BH workqueues.

Memory reclaim writes pages back (and swaps out) through the block
drivers and waits for their completions. Documentation/core-api/
workqueue.rst: a workqueue that may be used in memory reclaim MUST have
WQ_MEM_RECLAIM, which reserves it a rescuer thread so its work makes
progress when no new kworker can be created. The process-context queues
TARGET=thread moves work to (system_percpu_wq, system_highpri_wq) do not
have it. A BH workqueue runs its items from softirq, with no kworker to
create, so the work of such a driver stays there until it has a
WQ_MEM_RECLAIM workqueue of its own (which it must allocate and free
with its other resources: not a rewrite this tool makes).

Whether a driver completes block I/O is read from the code of the kbuild
module of each file of the group (ctext.blockio): it registers a SCSI
host or a block device, calls the block completion API, or registers a
host of a bus whose cards are block devices. Not from its folder.
"""

from __future__ import annotations

from pathlib import Path

from ...ctext import blockio
from ...ctext.sources import read_text


def facts(kdir: Path, files: list[str]) -> list[blockio.Fact]:
    """What shows that the drivers of files complete block I/O (each
    kind of fact once)."""
    seen: set[str] = set()
    done: set[str] = set()
    out: list[blockio.Fact] = []
    for f in files:
        if not f.endswith(".c"):
            continue
        for m in blockio.module_files(kdir, f):
            if m in done:
                continue
            done.add(m)
            try:
                text = read_text(kdir / m)
            except (OSError, UnicodeDecodeError):
                continue
            for fact in blockio.facts(m, text):
                if blockio.CALLS[fact.call] not in seen:
                    seen.add(blockio.CALLS[fact.call])
                    out.append(fact)
    return out


def why(kdir: Path, files: list[str], qs: dict[str, str]) -> str:
    """Why the group of files stays on BH workqueues under TARGET=thread
    because its driver completes block I/O; "" when nothing shows it
    does. qs: the process-context queues it would move to."""
    found = facts(kdir, files)
    if not found:
        return ""
    names = " and ".join(sorted(set(qs.values())))
    return ("the driver is on the path that completes block I/O: "
            + "; ".join(f.words() for f in found)
            + ". Memory reclaim writes pages back through it and waits for those "
            "completions, and a workqueue used in memory reclaim must have "
            f"WQ_MEM_RECLAIM (Documentation/core-api/workqueue.rst), which {names} do"
            + ("es" if len(set(qs.values())) == 1 else "") + " not have. A BH workqueue "
            "runs its work from softirq, with no worker to create, so the work stays there "
            "until the driver has a WQ_MEM_RECLAIM workqueue of its own.")
