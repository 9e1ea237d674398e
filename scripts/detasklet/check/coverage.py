# SPDX-License-Identifier: GPL-2.0-only
"""make coverage: how much of the tree some allmodconfig builds at all.

Every file of report.json, converted or not, against each arch's .config
with the same Kbuild reading that chooses where compile-test builds
(ctext.kbuild.Enablement). Only allmodconfig is run (in
BUILD/<arch>-pristine), nothing is compiled.
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

from ..ctext.includes import includers
from ..ctext.kbuild import Enablement, read_config
from ..out import files as outfiles
from . import make
from .arches import ARCHES, candidates, make_vars, order
from .compile_test import objects_for

log = logging.getLogger("detasklet")


def coverage(kdir: Path, out: Path, build: Path, arches: list[str]
             ) -> tuple[dict[str, list[str]], dict[str, str]]:
    """file -> the arches whose allmodconfig builds one of its objects, and
    for the other files why not."""
    files = sorted(f["path"] for f in outfiles.load_report(out)["files"])
    by_file = objects_for(files, includers(kdir))
    kmtime = make.kconfig_newest(kdir)
    ens: dict[str, Enablement] = {}
    missing: list[str] = []
    for name in order(arches):
        arch = ARCHES[name]
        if not shutil.which(arch.compiler):
            missing.append(f"{name} ({arch.package} not installed)")
            continue
        pristine = build / f"{name}-pristine"
        make.configure(kdir, pristine, make_vars(arch, None), 1, kmtime, prepare=False,
                       allconfig=arch.allconfig)
        ens[name] = Enablement(kdir, read_config(pristine), arch.karch)
    on: dict[str, list[str]] = {}
    why: dict[str, str] = {}
    for f in files:
        objs = by_file.get(f, set())
        hit = [a for a, en in ens.items()
               if any(o in candidates([o], a) and en.listed(o[:-2] + ".o") for o in objs)]
        if hit:
            on[f] = hit
        elif not objs:
            why[f] = "no .c file includes it"
        elif all(ens[a].listed(o[:-2] + ".o") is None for a in ens for o in objs):
            why[f] = "no Makefile names it"
        else:
            why[f] = ("not enabled by allmodconfig on " + ", ".join(ens)
                      + ("; not tried: " + ", ".join(missing) if missing else ""))
    return on, why


def main(kdir: Path, out: Path, build: Path, arches: list[str]) -> int:
    on, why = coverage(kdir, out, build, arches)
    total = len(on) + len(why)
    for f, w in sorted(why.items()):
        print(f"  not built: {f}: {w}")
    first: dict[str, int] = {}
    for hit in on.values():
        first[hit[0]] = first.get(hit[0], 0) + 1
    print(f"coverage: {len(on)} of {total} tasklet files ({100 * len(on) / max(total, 1):.1f}%) "
          "are built by the allmodconfig of some arch (" +
          ", ".join(f"{a} {n}" for a, n in sorted(first.items(), key=lambda x: -x[1])) + ")")
    return 0
