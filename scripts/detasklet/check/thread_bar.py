# SPDX-License-Identifier: GPL-2.0-only
"""The bar of a TARGET=thread output, checked from what the run wrote
(OUT/report.json and OUT/all.patch) and KDIR's code, not from the rules
that wrote it (tests/thread_bar.py runs it; docs/thread.md):

- reclaim: no .c file whose patch queues on a process-context system
  workqueue (none of them has WQ_MEM_RECLAIM) is linked into a kbuild
  module whose code calls any function of the block, SCSI, ATA, NVMe, MMC
  or memstick layers or registers a host of a storage bus
  (ctext/threadbar.py: every such call, broader than the rule's list);
- kernel: no file under kernel/ moves, and report.json says bh for each;
- policies: no file (outside include/) that a target choice of
  policies.toml keeps on BH moves; the most specific choice decides, as a
  driver's own entry may move it out of its subsystem's;
- report: report.json's target of each converted file agrees with its
  patch (a file queuing on a process-context queue is thread; a thread
  .c file does not queue on BH workqueues only).

Each check gives its failures as lines; an empty list is a pass.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..ctext import blockio, gitdiff, threadbar
from ..ctext.sources import read_text
from ..errors import InputError

POLICIES = Path(__file__).resolve().parents[3] / "policies.toml"


@dataclass(frozen=True)
class Out:
    """What a TARGET=thread run wrote: each converted file's report.json
    entry, and the process-context queues its patch names."""
    files: dict[str, dict[str, Any]]
    moved: dict[str, list[str]]
    guarded: set[str]
    on_bh: dict[str, list[str]]


def load(out: Path) -> Out:
    """OUT's report.json and all.patch; an InputError when either is missing
    or the run was not TARGET=thread."""
    try:
        report = json.loads((out / "report.json").read_text())
        patch = (out / "all.patch").read_text(errors="surrogateescape")
    except (OSError, ValueError) as e:
        raise InputError(f"{out}: no readable report.json and all.patch ({e})") from None
    if report.get("target") != "thread":
        raise InputError(f"{out}: a run of TARGET={report.get('target')}, not thread")
    files = {f["path"]: f for f in report["files"] if f.get("status") == "converted"}
    fds = gitdiff.parse(patch)
    moved = {fd.path: qs for fd in fds if (qs := threadbar.process_queues(fd))}
    return Out(files, moved, {fd.path for fd in fds if threadbar.guards(fd)},
               {fd.path: qs for fd in fds if (qs := threadbar.bh_queues(fd))})


def choices(path: Path = POLICIES) -> list[tuple[str, str, str]]:
    """(path prefix, target, entry name) of every target choice."""
    data = tomllib.loads(path.read_text())
    return [(p, d["target"], name) for name, d in data.items() if "target" in d
            for p in d["paths"]]


def _driver_calls(kdir: Path, rel: str) -> list[str]:
    """file: call, for each block-layer call in the .c files of the kbuild
    module rel is linked into (rel alone when its folder's kbuild file does
    not list it)."""
    found = []
    for f in blockio.module_files(kdir, rel):
        try:
            calls = threadbar.block_calls(read_text(kdir / f))
        except OSError:
            continue
        found += [f"{f}: {c}()" for c in calls]
    return found


def reclaim(o: Out, kdir: Path) -> list[str]:
    """Moved .c files whose driver's code shows block I/O (its headers go
    with a .c file of their group)."""
    bad = []
    for path, qs in sorted(o.moved.items()):
        if not path.endswith(".c"):
            continue
        calls = _driver_calls(kdir, path)
        if calls:
            bad.append(f"{path} queues on {', '.join(qs)} (no WQ_MEM_RECLAIM); its driver "
                       f"calls {'; '.join(calls[:6])}{' ...' if len(calls) > 6 else ''}")
    return bad


def kernel(o: Out) -> list[str]:
    """kernel/ files that move or whose report says other than bh."""
    bad = [f"{p} moves to {', '.join(qs)}" for p, qs in sorted(o.moved.items())
           if p.startswith("kernel/")]
    bad += [f"{p}: report.json target {f.get('target')!r}" for p, f in sorted(o.files.items())
            if p.startswith("kernel/") and f.get("target") != "bh"]
    return bad


def policies(o: Out, table: list[tuple[str, str, str]]) -> list[str]:
    """Files a bh choice covers (its most specific one) that move."""
    bad = []
    for path, qs in sorted(o.moved.items()):
        cover = [c for c in table if path.startswith(c[0])]
        if path.startswith("include/") or not cover:
            continue
        prefix, target, name = max(cover, key=lambda c: len(c[0]))
        if target == "bh":
            bad.append(f"{path} moves to {', '.join(qs)}, but policies.toml [{name}] "
                       f"({prefix}) keeps it on BH")
    return bad


def report(o: Out) -> list[str]:
    """report.json targets that disagree with the patch: a file that queues
    on a process-context queue and is not "thread", or a .c file that is
    "thread" and whose patch queues on a BH workqueue only (a file of a
    moved group whose patch converts only kills or disables names no
    queue: nothing to disagree with)."""
    bad = []
    for path, f in sorted(o.files.items()):
        thread = f.get("target") == "thread"
        if path in o.moved and not thread:
            bad.append(f"{path}: report.json target {f.get('target')!r}, but its patch "
                       f"queues on {', '.join(o.moved[path])}")
        elif thread and path.endswith(".c") and path in o.on_bh and path not in o.moved:
            bad.append(f"{path}: report.json target 'thread', but its patch queues on "
                       f"{', '.join(o.on_bh[path])} only")
    return bad


def check(out: Path, kdir: Path) -> dict[str, list[str]]:
    """Every check's failures, by name."""
    o = load(out)
    return {"reclaim": reclaim(o, kdir), "kernel": kernel(o),
            "policies": policies(o, choices()), "report": report(o)}


def outside(out: Path, kdir: Path) -> tuple[int, list[str]]:
    """For any run's OUT (a BH one too): how many converted .c files lie
    outside every choice's paths and dmaengine's (the files TARGET=thread
    may move), and those whose driver's code shows block I/O, with it."""
    try:
        report = json.loads((out / "report.json").read_text())
    except (OSError, ValueError) as e:
        raise InputError(f"{out}: no readable report.json ({e})") from None
    table = [p for p, _, _ in choices()] + ["drivers/dma/"]
    files = [f["path"] for f in report["files"] if f.get("status") == "converted"
             and f["path"].endswith(".c") and not any(f["path"].startswith(p) for p in table)]
    return len(files), [f"{p}: {'; '.join(c)}" for p in files if (c := _driver_calls(kdir, p))]
