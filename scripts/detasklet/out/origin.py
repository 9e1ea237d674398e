# SPDX-License-Identifier: GPL-2.0-only
"""OUT/run.json: what one run measured, apart from its result, and the
tree OUT was made from.

report.json and the rest of OUT are a function of the inputs (two runs
write the same bytes); run.json holds what differs between two runs: the
seconds of each stage and what the cache gave. It also records KDIR (its
absolute path) and its kernel version, so that series, send-check,
compile-test and coverage without KDIR read the tree OUT was made from,
and refuse in one line when it is gone or changed, instead of falling back
to another tree.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import DetaskletError, InputError, OutError
from ..kdir import kernel_version

RUN = "run.json"


def write_run(out: Path, kdir: Path, kernel: str, times: dict[str, float],
              cache_counts: dict[str, int] | None) -> None:
    """OUT/run.json of this run (written into the scratch OUT)."""
    data: dict[str, object] = {"kdir": str(kdir.resolve()), "kernel": kernel,
                               "timings": times}
    if cache_counts is not None:
        data["cache"] = cache_counts
    (out / RUN).write_text(json.dumps(data, indent=1) + "\n")


def read_run(out: Path) -> dict | None:
    """OUT/run.json, or None when there is none (or it is damaged)."""
    try:
        data = json.loads((out / RUN).read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def kdir_for(kdir_arg: str | None, out_arg: str) -> str:
    """The KDIR of a command that reads an OUT: the one given, else the
    one OUT records, if it is still there at the same kernel version."""
    if kdir_arg:
        return kdir_arg
    out = Path(out_arg).expanduser().absolute()
    if not out.is_dir():
        raise OutError(f"OUT {out} does not exist: make convert OUT={out_arg} first "
                       "(or give KDIR= and an OUT made from it)")
    run = read_run(out)
    if not run or not isinstance(run.get("kdir"), str) or not run.get("kernel"):
        raise InputError(f"{out} records no KDIR (no {RUN}: made by an older detasklet): "
                         "give KDIR=<the tree it was made from>")
    kdir = Path(run["kdir"])
    try:
        have = kernel_version(kdir)
    except DetaskletError:
        raise InputError(f"{out} was made from KDIR {kdir}, which is gone or no longer a "
                         "kernel tree: give KDIR=<tree>, or make convert again") from None
    if have != run["kernel"]:
        raise InputError(f"{out} was made from KDIR {kdir} at Linux {run['kernel']}; it is "
                         f"now Linux {have}: make convert again, or give KDIR=<tree>")
    return str(kdir)
