# SPDX-License-Identifier: GPL-2.0-only
"""Which changed lines of the converted files the compiler saw.

A converted file whose object builds was not compiled where it changed
when its changed lines sit under a preprocessor condition the arch's
configuration leaves off. Per arch, after the converted objects built,
this asks kbuild for the preprocessed output (`make dir/x.i`) of the
objects that can tell (ctext.preproc reads it), and keeps, per file, the
changed lines seen on some arch. A line of a .c outside any #if of the
file, when that .c's own object built, needs no .i: it was compiled.
The .i files are removed once read (a few MB each).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from ..ctext import preproc
from . import make

log = logging.getLogger("detasklet")


@dataclass
class Reach:
    """changed: file -> its changed code lines; seen: file -> those some
    arch compiled; unsure: file -> the changed lines under an #if."""
    changed: dict[str, list[int]] = field(default_factory=dict)
    unsure: dict[str, set[int]] = field(default_factory=dict)
    seen: dict[str, set[int]] = field(default_factory=dict)

    def done(self, f: str) -> bool:
        return set(self.changed.get(f, [])) <= self.seen.get(f, set())


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def start(kdir: Path, src: Path, files: list[str]) -> Reach:
    """The changed code lines of each file (KDIR against the converted copy)."""
    r = Reach()
    for f in files:
        new = _read(src / f)
        r.changed[f] = preproc.changed_lines(_read(kdir / f), new)
        r.unsure[f] = set(r.changed[f]) & preproc.conditional_lines(new)
    return r


def after_build(r: Reach, src: Path, bdir: Path, mvars: list[str], jobs: int, label: str,
                built: list[str], by_file: dict[str, set[str]]) -> None:
    """Record what the objects of built (the .c files whose converted
    object built on this arch) compiled of the changed lines."""
    ok = set(built)
    need: set[str] = set()
    for f, objs in by_file.items():
        here = objs & ok
        if not here or r.done(f):
            continue
        if f in here:      # its own object: what no #if of its own holds
            r.seen.setdefault(f, set()).update(set(r.changed[f]) - r.unsure[f])
        if not r.done(f):
            need |= here
    if not need:
        return
    dot_i = sorted(o[:-2] + ".i" for o in need)
    log.info(f"{label}: preprocessing {len(dot_i)} objects for the changed lines under #if")
    res = make.compile_objects(src, bdir, mvars, dot_i, jobs, label)
    want = {f for f, o in by_file.items() if o & need}
    roots = (str(src.resolve()), str(src))
    for i, (status, _) in res.items():
        path = bdir / i
        if status == "ok":
            text = _read(path)
            for f, lines in preproc.present_lines(text, roots, want).items():
                got = preproc.compiled(_read(src / f), r.changed[f], lines)
                r.seen.setdefault(f, set()).update(got)
        path.unlink(missing_ok=True)


def unseen(r: Reach, obj: str, by_file: dict[str, set[str]]) -> bool:
    """Whether obj checks a file none of whose changed lines any arch has
    compiled yet."""
    return any(obj in objs and bool(r.changed.get(f)) and not r.seen.get(f)
               for f, objs in by_file.items())


def record(r: Reach, f: str) -> dict[str, int] | None:
    """report.json's "changed_lines" of f: how many of its changed code
    lines some arch compiled; None when it has none to check."""
    n = len(r.changed.get(f, []))
    if not n:
        return None
    return {"compiled": len(r.seen.get(f, set()) & set(r.changed[f])), "of": n}
