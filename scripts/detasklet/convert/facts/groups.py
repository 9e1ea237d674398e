# SPDX-License-Identifier: GPL-2.0-only
"""Stage 2: groups of files that share a tasklet, and the facts of each.

A header that declares a tasklet (a field, a prototype) and every file that
includes it and names what it declares form one group: they convert
together or not at all. A file that includes the header for something else
(fsl-qdma.c includes fsldma.h for its registers) is not tied to it. The
include graph is followed through quoted includes and through <...>
includes that resolve inside the tree's include/ folder (ctext.includes).
A file near the group that only defines a legacy callback of it joins it.

examine() first applies the driver's own semantic patch, if it has one
(convert.facts.driver_patches), moves per-vector tasklet arrays into their
vectors (convert.facts.per_vector), and writes the uses of tasklet members that
have a one-for-one form in that form (convert.facts.normalise); then it fills a
Group's facts, each from its own module: the items hi-scheduled anywhere
in the group, the sync helpers, the legacy callbacks
(convert.facts.legacy, convert.facts.legacy_local), and the refusals
(convert.facts.refusals). A new analysis adds a field here and a module beside;
the replacement of each enable/kill/disable site (convert.verdicts.sites) comes
after, in the pipeline, with the decisions for the driver.
"""

from __future__ import annotations

import re

from dataclasses import dataclass, field
from typing import Callable
from pathlib import Path

from ...ctext.includes import Resolver, named_anywhere
from ...ctext.lex import mask
from ...ctext.sources import read_text
from ...ctext.tasklet import (HI_SCHEDULE_RE, declared_names, key, only_members, shared_names,
                              uses_shared)
from ... import proc, scratch
from ...unionfind import UnionFind
from . import driver_patches, legacy, legacy_local, normalise, per_vector, refusals, unused
from .scan import FileScan
from ..verdicts.sites import Plan


@dataclass
class Group:
    files: list[str]
    hi_keys: set[str] = field(default_factory=set)
    refusals: dict[str, str] = field(default_factory=dict)   # file -> reason
    timed_out: bool = False     # its facts outran the time limit (all refused)
    legacy: dict[str, str] = field(default_factory=dict)     # callback -> field (from_work)
    # callbacks that keep their body, their argument a local (legacy_local)
    legacy_local: dict[str, legacy_local.LocalCb] = field(default_factory=dict)
    # file -> why a tasklet_init() of it stays (said when one is left)
    legacy_why: dict[str, str] = field(default_factory=dict)
    callback_only: list[str] = field(default_factory=list)   # files that only define a callback
    notes: dict[str, list[str]] = field(default_factory=dict)  # file -> for the reviewer
    sync_helpers: set[str] = field(default_factory=set)     # reach a sync tasklet call
    plan: Plan = field(default_factory=Plan)                # each site's replacement (sites)
    marked: dict[str, str] = field(default_factory=dict)    # file -> text with its markers
    # file -> the text the analyses and spatch read, where it is not the
    # file's own (rewritten(): driver patches, per-vector move, normalising)
    source: dict[str, str] = field(default_factory=dict)
    # file -> the `// Mapping:` rows of the driver patches that rewrote it
    # in place ([] when they state none; absent: none did)
    mapped: dict[str, list[str]] = field(default_factory=dict)
    # the driver's patches of their own (its fix, its prep patch: each
    # before the conversion), in the order they apply, each with the text
    # of each file it changed after it
    steps: list[tuple[driver_patches.DriverPatch, dict[str, str]]] = field(
        default_factory=list)
    # a header nothing in the tree names, whose only tasklet API is plain
    # members: they are deleted, not converted (fixups.after_spatch)
    dead_members: set[str] = field(default_factory=set)
    # file -> {member: its struct}: tasklet members no code of the tree
    # names, removed rather than converted (convert.facts.unused)
    unused: dict[str, dict[str, str]] = field(default_factory=dict)
    # struct tag -> member -> its struct tag, of the headers the files
    # include (ctext.ptrtypes.included): the type of `tty->ops`
    types: dict[str, dict[str, str]] = field(default_factory=dict)


def reachable_users(res: Resolver, rel: str, users: set[str], depth: int = 0) -> set[str]:
    """User headers reachable from rel through quoted includes (and any
    include that is itself a user)."""
    found: set[str] = set()
    if depth > 6:
        return found
    for inc in res.of(rel):
        if inc in users:
            found.add(inc)
        if not inc.startswith("include/") or inc in users:
            found |= reachable_users(res, inc, users, depth + 1)
    return found


def _examined(job: tuple[Path, Group, list[driver_patches.DriverPatch], float | None]
              ) -> Group:
    kdir, g, drivers, timeout = job
    examine_within(timeout, kdir, g, None, drivers)
    return g


def too_long(g: Group, timeout: float, what: str) -> None:
    """Refuse every file of g: what (a stage) outran the time limit."""
    g.timed_out = True
    for f in g.files:
        g.refusals.setdefault(f, f"{what} of its group took longer than the time limit "
                                 f"({timeout:g} s, TIMEOUT)")


def examine_within(timeout: float | None, kdir: Path, g: Group,
                   masked: Callable[[str], str] | None,
                   drivers: list[driver_patches.DriverPatch]) -> None:
    """examine(), its files refused when it takes more than timeout s."""
    if timeout is None:
        examine(kdir, g, masked, drivers)
        return
    try:
        with proc.time_limit(timeout):
            examine(kdir, g, masked, drivers)
    except proc.TimeLimit:
        too_long(g, timeout, "reading the facts")


def group_files(kdir: Path, scans: list[FileScan], jobs: int = 1,
                timeout: float | None = None) -> list[Group]:
    """The groups of files that share tasklets, each examined (jobs > 1:
    in that many processes; the facts are plain text work); a group whose
    facts take more than timeout seconds has its files refused."""
    users = {s.path for s in scans}
    uf: UnionFind[str] = UnionFind(s.path for s in scans)
    res = Resolver(kdir)
    shared: dict[str, tuple[set[str], set[str]]] = {}
    codes: dict[str, str] = {}

    def code(f: str) -> str:
        if f not in codes:
            codes[f] = mask(read_text(kdir / f))
        return codes[f]
    for s in scans:
        for h in reachable_users(res, s.path, users):
            # A file shares a header's tasklets only if it names them (or a
            # function or macro of the header that does): including the
            # header for something else ties nothing together.
            if h not in shared:
                shared[h] = shared_names(code(h))
            if uses_shared(code(s.path), *shared[h]):
                uf.union(s.path, h)
    # The files of one driver patch convert together, the ones that do not
    # use the API yet included (ccp's tasklet moves into a header; ccree's
    # prep patch also cleans cc_driver.h): the include scan above, on the
    # unpatched text, cannot see what the patch will tie together.
    drivers = driver_patches.load()
    for d in drivers:
        present = [f for f in d.files if f in users]
        for f in present[1:]:
            uf.union(present[0], f)
    groups = [Group(sorted(m)) for m in uf.sets((s.path for s in scans), key=str)]
    for g in groups:
        for d in drivers:
            if set(d.files) & set(g.files):
                g.files = sorted(set(g.files) | {f for f in d.files if (kdir / f).is_file()})
    if jobs > 1 and len(groups) > 1:
        with proc.pool(jobs) as ex:
            groups = list(ex.map(_examined, [(kdir, g, drivers, timeout) for g in groups],
                                 chunksize=4))
    else:
        for g in groups:
            examine_within(timeout, kdir, g, code, drivers)
    # A callback-only file found for two groups joins them into one.
    owner: dict[str, int] = {}
    for i, g in enumerate(groups):
        for f in g.callback_only:
            if f in owner:
                uf.union(groups[owner[f]].files[0], g.files[0])
            owner[f] = i
    merged = []
    for parts in uf.sets(groups, key=lambda g: g.files[0]):
        if len(parts) == 1:
            merged.append(parts[0])
            continue
        # Only a merged group needs its facts again.
        g = Group(sorted({f for p in parts for f in p.files}))
        examine_within(timeout, kdir, g, code, drivers)
        merged.append(g)
    for g in merged:
        g.files = sorted(set(g.files) | set(g.callback_only))
    return sorted(merged, key=lambda g: g.files[0])


def moved(g: Group, codes: dict[str, str], pv: per_vector.PerVector,
          current: Callable[[str], str]) -> None:
    """The per-vector move of pv (convert.facts.per_vector) on the group's files
    (current(path): a file's text so far), when it leaves no index into the
    old array."""
    files = [f for f, c in codes.items() if re.search(r"\b" + pv.tasklets + r"\b", c)
             or re.search(r"\b" + pv.vector_type.replace(" ", r"\s+") + r"\s*\{", c)]
    with scratch.folder("vector") as tmp:
        d = driver_patches.DriverPatch(per_vector.write_cocci(pv, tmp), tuple(files),
                                       pv.why())
        new = {f: driver_patches.apply(d, f, current(f)) for f in files}
    if any(pv.left(mask(t)) for t in new.values()):
        return
    for f, text in new.items():
        g.source[f], codes[f] = text, mask(text)
    home = min(files, key=lambda f: not f.endswith(".c"))     # a .c when there is one
    g.notes.setdefault(home, []).append(pv.why())


def rewritten(kdir: Path, g: Group, codes: dict[str, str],
              drivers: list[driver_patches.DriverPatch]) -> None:
    """The text the analyses and spatch read (g.source, codes: masked),
    where it is not the file's own: the driver's own patches (its prep
    patch first), the per-vector move, the normalising rewrites."""
    own: dict[str, str] = {}

    def current(f: str) -> str:
        return g.source.get(f) or own.setdefault(f, read_text(kdir / f))
    for f in g.files:
        for d in driver_patches.for_file(drivers, f):
            raw = current(f)
            text = driver_patches.apply(d, f, raw)
            if text == raw:
                continue
            g.source[f], codes[f] = text, mask(text)
            if d.own:
                own_step(g, d, f, text)
            else:
                g.notes.setdefault(f, []).append(d.why)
                g.mapped.setdefault(f, []).extend(d.rows)
    for pv in per_vector.find(codes):
        moved(g, codes, pv, current)
    names = set().union(*(declared_names(c) for c in codes.values()))
    for f in g.files:
        raw = current(f)
        text, notes = normalise.normalised(raw, names)
        if text != raw:
            g.source[f], codes[f] = text, mask(text)
            g.notes.setdefault(f, []).extend(notes)


def own_step(g: Group, d: driver_patches.DriverPatch, f: str, text: str) -> None:
    """Record that d, a patch of its own (fix or prep), made text of f; a
    second prep patch in one group, or a second fix of one file, refuses
    f. Fixes of different files of a group are patches of their own each
    (liquidio: the PF's and the VF's, two modules sharing a header)."""
    other = next((e for e, t in g.steps if e != d and (
        e.prep and d.prep or e.fix and d.fix and f in t)), None)
    if other:
        where = "file" if d.fix else "group"
        g.refusals.setdefault(f, f"two {'fix' if d.fix else 'prep'} patches for one {where}: "
                                 f"{other.name} and {d.name}")
        return
    step = next((t for e, t in g.steps if e == d), None)
    if step is None:
        step = {}
        g.steps.append((d, step))
        g.steps.sort(key=lambda st: not st[0].fix)
    step[f] = text


def examine(kdir: Path, g: Group, masked: Callable[[str], str] | None = None,
            drivers: list[driver_patches.DriverPatch] | None = None) -> None:
    """Fill the group's facts and the reasons its files cannot convert;
    masked(path): the masked text of a file of KDIR, if already at hand;
    drivers: the per-driver semantic patches (default: cocci/drivers/)."""
    codes = {f: masked(f) if masked else mask(read_text(kdir / f)) for f in g.files}
    if len(g.files) == 1 and g.files[0].endswith(".h") and only_members(
            read_text(kdir / g.files[0])) and not named_anywhere(kdir, g.files[0]):
        g.dead_members = {g.files[0]}
    rewritten(kdir, g, codes, driver_patches.load() if drivers is None else drivers)
    names = set().union(*(declared_names(c) for c in codes.values()))
    texts = list(codes.values())
    hi = {key(a) for c in texts for a in HI_SCHEDULE_RE.findall(c)}
    g.hi_keys = hi
    g.sync_helpers = refusals.sync_helpers(texts)
    g.legacy = legacy.legacy_fields(texts)
    wanted = legacy.callbacks_to_find(texts, g.legacy)
    near = legacy.callback_files(kdir, g.files, wanted) if wanted else {}
    g.legacy_local, g.legacy_why = legacy_local.locals_for(
        {**codes, **near}, g.legacy,
        lambda w: legacy.near_files(kdir, g.files, {w}, re.compile(r"\b" + w + r"\b")))
    for cb, c in g.legacy_local.items():
        g.legacy.pop(cb, None)          # the from_work() rules leave it alone
        g.notes.setdefault(c.home, []).append(legacy_local.note(c, cb))
    # Keep only the callback-only files of callbacks that convert.
    keep = set(g.legacy) | set(g.legacy_local)
    used = legacy.decl_re(keep) if keep else None
    g.callback_only = [f for f, t in near.items() if used and used.search(t)]
    joined = "\n".join(texts)
    for f, code in codes.items():
        why = refusals.in_atomic_side_effect(code, joined)
        if why:
            g.refusals[f] = why
            continue
        why = refusals.atomic_entry(code, g.sync_helpers) or refusals.internals(code, names)
        if why:
            g.refusals[f] = why
    g.unused = unused.unused_members(kdir, {f: c for f, c in codes.items()
                                            if f not in g.dead_members})
    for f, ms in g.unused.items():
        g.notes.setdefault(f, []).extend(unused.note(n, t) for n, t in sorted(ms.items()))
