# SPDX-License-Identifier: GPL-2.0-only
"""KDIR: a Linux kernel tree, which release, and whether it has BH workqueues.

Every command reads KDIR and none writes into it."""

from __future__ import annotations

import re
from pathlib import Path

from .ctext import workqueue
from .errors import TreeError


# API the rewrite emits -> the kernel release that brought it.
NEEDED = {"WQ_BH": "6.9", "system_bh_wq": "6.9", "from_work": "6.9",
          "disable_work_sync": "6.10", "enable_and_queue_work": "6.10"}


def kernel_version(kdir: Path) -> str:
    if not kdir.exists():
        raise TreeError(f"KDIR {kdir} does not exist")
    if not kdir.is_dir():
        raise TreeError(f"KDIR {kdir} is not a folder")
    mk = kdir / "Makefile"
    if (kdir / "Kbuild").is_file() and not (kdir / "include/linux/workqueue.h").is_file():
        raise TreeError(f"KDIR {kdir} is an external module, not a Linux kernel tree: say "
                        f"M={kdir} (and KDIR= the kernel to convert it for)")
    if not mk.is_file():
        raise TreeError(f"KDIR {kdir} is not a Linux kernel tree (no top-level Makefile)")
    try:
        text = mk.read_text(errors="replace")
    except OSError as e:
        raise TreeError(f"KDIR {kdir} is not readable: {e.strerror}") from None
    v = dict(re.findall(r"^(VERSION|PATCHLEVEL|SUBLEVEL)\s*=\s*(\d+)", text, re.M))
    if len(v) < 3 or not (kdir / "include/linux/workqueue.h").is_file():
        raise TreeError(f"KDIR {kdir} is not a Linux kernel tree (no top Makefile "
                        "with VERSION/PATCHLEVEL, or no include/linux/workqueue.h)")
    return f"{v['VERSION']}.{v['PATCHLEVEL']}.{v['SUBLEVEL']}"


def check_bh_workqueues(kdir: Path) -> None:
    """The BH workqueue API (NEEDED) declared in KDIR's workqueue.h, read by
    ctext.workqueue as every other reader of it; a TreeError otherwise."""
    code = workqueue.text_of(kdir)
    for name, since in NEEDED.items():
        if not workqueue.declares(code, name):
            raise TreeError(f"this kernel has no {name} in include/linux/workqueue.h "
                            f"(BH workqueue API, since Linux {since}): convert a newer tree")
