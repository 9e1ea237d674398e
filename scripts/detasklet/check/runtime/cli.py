# SPDX-License-Identifier: GPL-2.0-only
"""The runtime subcommand's arguments checked and turned into Options."""

from __future__ import annotations

import argparse
from pathlib import Path

from ...errors import InputError, TreeError
from .run import Options, from_logs, run


def options(a: argparse.Namespace) -> Options:
    kdir = Path(a.kdir).resolve()
    if not (kdir / "kernel" / "softirq.c").is_file() or not (kdir / "Makefile").is_file():
        raise TreeError(f"KDIR '{a.kdir}' is not a Linux kernel source tree")
    if (kdir / ".config").exists() or (kdir / "include" / "config").exists():
        raise TreeError(f"KDIR '{kdir}' has an in-tree build (.config); kbuild's O= needs "
                        f"a clean source tree")
    out = Path(a.out).resolve()
    build = Path(a.build_dir).resolve()
    for p, what in ((out, "OUT"), (build, "the build folder")):
        if p == kdir or kdir in p.parents:
            raise InputError(f"{what} '{p}' is inside KDIR; KDIR is never written")
    if not out.is_dir():
        raise InputError(f"OUT '{a.out}' does not exist (make convert first)")
    return Options(kdir=kdir, out=out, build_dir=build, workloads=a.workloads,
                   kernels=a.kernels, jobs=a.jobs, cc=a.cc, timeout=a.timeout,
                   from_logs=a.from_logs, rounds=a.rounds,
                   command="make runtime-bench" if a.rounds else "make runtime")


def main(a: argparse.Namespace) -> int:
    o = options(a)
    return from_logs(o) if o.from_logs else run(o)
