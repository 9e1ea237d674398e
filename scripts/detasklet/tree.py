"""Check that a folder is a kernel tree this tool can convert."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from .errors import ToolError, TreeError


# API the rewrite emits -> the kernel release that brought it.
NEEDED = {"WQ_BH": "6.9", "system_bh_wq": "6.9", "from_work": "6.9",
          "disable_work_sync": "6.10", "enable_and_queue_work": "6.10"}


def kernel_version(kdir: Path) -> str:
    if not kdir.exists():
        raise TreeError(f"KDIR {kdir} does not exist")
    if not kdir.is_dir():
        raise TreeError(f"KDIR {kdir} is not a folder")
    mk = kdir / "Makefile"
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
    text = (kdir / "include/linux/workqueue.h").read_text(errors="replace")
    for name, since in NEEDED.items():
        if not re.search(r"\b" + name + r"\b", text):
            raise TreeError(f"this kernel has no {name} in include/linux/workqueue.h "
                            f"(BH workqueue API, since Linux {since}): convert a newer tree")


def check_spatch() -> str:
    if not shutil.which("spatch"):
        raise ToolError("spatch not found: install Coccinelle with "
                        "'apt-get install coccinelle' (Debian package, 1.1.1)")
    out = subprocess.run(["spatch", "--version"], capture_output=True, text=True).stdout
    m = re.search(r"spatch version (\d+)\.(\d+)\.(\d+)", out)
    if not m or tuple(map(int, m.groups())) < (1, 1, 1):
        raise ToolError(f"spatch is too old ({out.split(chr(10))[0] or 'unknown'}): "
                        "need 1.1.1, 'apt-get install coccinelle'")
    return ".".join(m.groups())
