# SPDX-License-Identifier: GPL-2.0-only
"""Stage 1: find the files of a kernel tree that use the tasklet API.

The scan is textual on purpose: it must find every user, including the code
spatch cannot parse, because the same reading (ctext.tasklet.find_uses)
is also the check that decides whether a rewritten file still names the
tasklet API. Comments and literals are masked first, so prose never counts.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ... import cache
from ...ctext.includes import Resolver, includers_of
from ...ctext.sources import CHECKED_SUFFIXES, Problems, iter_sources
from ...ctext.tasklet import CORE_FILES, MAYBE_RE, Use, find_uses


@dataclass
class FileScan:
    path: str                      # relative to the tree root, with '/'
    uses: list[Use] = field(default_factory=list)

    @property
    def idents(self) -> list[str]:
        return sorted({u.ident for u in self.uses})


def scan_tree(kdir: Path, paths: list[str], problems: Problems | None = None,
              store: cache.Cache | None = None) -> list[FileScan]:
    """All tasklet API users under paths (tools/ and samples/ included),
    the tasklet core excluded; files that cannot be read go to problems
    (see ctext.sources.iter_sources), and so does a Rust file that names
    the API: the rules rewrite C only, and the core cannot go while it
    does.
    With a store, a file whose size, times and inode are those of the last
    scan of this tree is not read again (what make does with a target)."""
    key = cache.digest(store.code("detasklet.ctext.tasklet"), str(kdir)) \
        if store and store.root else ""
    kept = (store.get("scan", key) if key and store else None) or {}
    index: dict[str, list] = {}
    users = []
    for rel in iter_sources(kdir, paths, problems, CHECKED_SUFFIXES):
        if rel in CORE_FILES:
            continue
        try:
            st = os.stat(kdir / rel)
            stamp = [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
            if kept.get(rel, [None])[:4] == stamp:
                uses = [Use(n, i) for n, i in kept[rel][4]]
            else:
                uses = _uses(kdir / rel)
        except OSError as e:
            if problems is not None:
                problems.append((rel, f"cannot be read ({e.strerror}): not scanned"))
            continue
        index[rel] = stamp + [[[u.line, u.ident] for u in uses]]
        if uses and rel.endswith(".rs"):
            if problems is not None:
                problems.append((rel, "a Rust file that names the tasklet API ("
                                 + ", ".join(sorted({u.ident for u in uses}))
                                 + "): the rules rewrite C only"))
        elif uses:
            users.append(FileScan(rel, uses))
    if key and store and index != {r: kept[r] for r in index if r in kept}:
        store.put("scan", key, {**kept, **index})
    return users


def with_headers(kdir: Path, scans: list[FileScan]) -> list[FileScan]:
    """scans and the headers outside them that they include, directly or
    through a local header or another user, and that use the API: with
    PATHS, a driver's tasklet may be declared in include/ (hp_sdc.c's in
    include/linux/hp_sdc.h), and its group converts with that header or
    not at all."""
    res = Resolver(kdir)
    out = list(scans)
    seen = {s.path for s in scans}
    todo = list(seen)
    while todo:
        for inc in res.of(todo.pop()):
            if inc in seen or inc in CORE_FILES or not inc.endswith(".h"):
                continue
            seen.add(inc)
            uses = _uses(kdir / inc)
            if uses:
                out.append(FileScan(inc, uses))
            if uses or not inc.startswith("include/"):
                todo.append(inc)
    return out


def header_users(kdir: Path, scans: list[FileScan], paths: list[str]) -> list[FileScan]:
    """The users outside paths of the headers among scans: the files that
    include one of them (directly, or through a header that does) and use
    the API. A header's tasklet item changes type in all its users at once,
    so its group converts with them or not at all; the grouping decides
    which of them share its items. As with_headers(), a header of include/
    that does not use the API is not followed (a hub every driver includes)."""
    inside = tuple(p.rstrip("/") for p in paths)

    def outside(rel: str) -> bool:
        return not any(rel == p or rel.startswith(p + "/") for p in inside)
    res = Resolver(kdir)
    known = {s.path for s in scans}
    todo = {s.path for s in scans if s.path.endswith(".h")}
    seen = set(todo)
    found = []
    while todo:
        hits = sorted({f for fs in includers_of(kdir, todo, res).values() for f in fs} - seen)
        seen.update(hits)
        todo = set()
        for rel in hits:
            uses = [] if rel in known or rel in CORE_FILES else _uses(kdir / rel)
            if uses and outside(rel):
                found.append(FileScan(rel, uses))
            if rel.endswith(".h") and rel not in CORE_FILES and (
                    uses or not rel.startswith("include/")):
                todo.add(rel)           # its includers may use the header's items too
    return found


def _uses(path: Path) -> list[Use]:
    raw = path.read_bytes()
    if not MAYBE_RE.search(raw):
        return []
    return find_uses(raw.decode("utf-8", errors="surrogateescape"))
