# SPDX-License-Identifier: GPL-2.0-only
"""make convert, the whole flow; each stage's folder and modules are in
convert/__init__.py:

    KDIR
    -> facts/scan        every file that uses the tasklet API
    -> facts/groups      the files that share a tasklet, and each group's facts:
                         its driver patch, per-vector arrays, normalised member
                         uses, refusals, legacy callbacks
    -> verdicts/sites    a verdict for each enable/kill/disable/... site, proven
                         by verdicts/analyses (balance, percpu) or given by
                         verdicts/decisions; the text with each call's marker
                         (chosen(), choose_sites())
    -> rewrite/spatch    spatch on each file (rewrite/protocol: the group's
                         facts; rewrite/fixups: what spatch cannot do)
    -> target/policy     a subsystem's own workqueues in its drivers' new text
    -> rewrite/classify  each group converts fully or not at all
    -> target/thread     TARGET=thread or a subsystem's choice: process context
                         (target/reclaim keeps block I/O on BH), late queues
    -> output/write      all.patch, report.json, report.md (output/tasklet_free:
                         the core removal, last)
    -> series/           one mail per driver (series.write)
    OUT

run() is the conversion itself, in memory; convert() is the command: it
checks every argument before any work, writes a new OUT in a scratch
folder (out.staging) and swaps it in whole, series/ included.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from dataclasses import replace
from pathlib import Path

from .. import __version__, cache, kdir as kdir_, module, proc
from ..ctext.sources import Problems, iter_sources, read_text
from ..ctext.tasklet import find_uses
from ..errors import InputError, OutError, ToolError
from ..out import place
from ..out.files import Status
from ..out.staging import Staging, locked
from ..series import hotpaths, identity, module as series_module, write as series_write
from ..ctext.lex import mask
from ..ctext import ptrtypes
from ..ctext.includes import Resolver
from .rewrite import classify, spatch
from .verdicts import decisions, sites
from .facts import groups, module_reach, scan
from .target import policy, reclaim, thread
from .output import write

log = logging.getLogger("detasklet")


def run(kdir: Path, paths: list[str], jobs: int, timeout: int,
        problems: Problems | None = None, decs: list[decisions.Decision] | None = None,
        kernel: str = "", store: cache.Cache | None = None,
        times: dict[str, float] | None = None,
        policies: list[policy.Policy] | None = None,
        target: str = "bh",
        choices: list[policy.TargetChoice] | None = None,
        kernel_tree: Path | None = None,
        warnings: list[str] | None = None) -> list[list[classify.Outcome]]:
    """scan -> groups -> sites (decisions) -> spatch -> policy -> classify ->
    thread; the outcomes by group.
    Paths that could not be scanned go to problems; decs are the decisions
    for the drivers (default: the project's decisions/), kernel the tree's
    version (a decision may be for one tree only); store keeps spatch's
    results between runs; times gets the seconds of each stage; policies:
    the subsystems' workqueues (default: policies.toml, those usable on
    kdir); target: "bh", the BH workqueues, or "thread", the process-context
    ones with each callback's softirq exclusion kept (convert.target.thread);
    choices: the subsystems' own targets (default: policies.toml's);
    kernel_tree: the kernel whose workqueues the rewrite uses, when kdir is
    an external module's folder (M=; default: kdir); warnings gets a line
    for each decision that applies to nothing."""
    kernel_tree = kernel_tree or kdir
    clock = Clock(times)
    scans = scan.scan_tree(kdir, paths, problems, store)
    clock.lap("scan")
    if paths and not scans and not iter_sources(kdir, paths):
        raise InputError(f"PATHS {' '.join(paths)} name no .c or .h file of KDIR")
    mine = {s.path for s in scans}
    jobs = max(1, min(jobs, len(scans)))    # no more workers than files
    log.info(f"facts: grouping the {len(scans)} files and reading their tasklets...")
    if paths:       # the headers of PATHS' users, and those headers' other users
        scans = scan.with_headers(kdir, scans)
        scans = scan.with_headers(kdir, scans + scan.header_users(kdir, scans, paths))
    found = groups.group_files(kdir, scans, jobs, timeout)
    if paths:       # a file outside PATHS only comes with a user of PATHS
        found = [g for g in found if mine & set(g.files)]
        for line in beyond_paths(found, mine):
            log.info(line)
    old = {f: read_text(kdir / f) for g in found for f in g.files}
    api = {s.path: s.idents for s in scans}
    decs = decisions.load() if decs is None else decs
    header_types(kdir, found)
    found = chosen(found, old, decs, kernel, jobs, timeout, kdir)
    for line in unmatched(found, decs, kernel):
        log.warning(line)
        if warnings is not None:
            warnings.append(line)
    clock.lap("facts")
    todo = [(f, g) for g in found for f in g.files if f not in g.refusals]
    users = {sc.path for sc in scans}
    grouped = sum(len(g.files) for g in found)
    log.info(f"{len(scans)} files use the tasklet API, in {len(found)} groups of {grouped} "
             f"files ({grouped - len(users & {f for g in found for f in g.files})} name no API: "
             "a callback's or a driver patch's file); rewriting "
             f"{len(todo)} with spatch, {grouped - len(todo)} refused before (-j{jobs})")
    done = clean = 0

    def progress(r: spatch.Result) -> None:
        nonlocal done, clean
        done += 1
        what = "rewritten" if r.new_text is not None else f"failed: {r.error}"
        if r.new_text is not None and not find_uses(r.new_text):
            clean += 1
        log.info(f"[{done}/{len(todo)}] {r.path} {what} ({clean} clean so far)")

    results = spatch.rewrite_all(kdir, todo, jobs, timeout, progress, store)
    clock.lap("spatch")
    log.info(f"classifying the {len(results)} rewritten files...")
    outcomes = classified(kdir, kernel_tree, found, old, results, api, policies, choices,
                          target)
    clock.lap("classify")
    return outcomes


def beyond_paths(found: list[groups.Group], mine: set[str]) -> list[str]:
    """A line for each group that converts files outside PATHS (mine: the
    users PATHS named): a header that declares its work items, and the
    header's users elsewhere, whose type changes with it."""
    out = []
    for g in found:
        more = sorted(f for f in g.files if f not in mine)
        own = sorted(f for f in g.files if f in mine)
        if more and own:
            out.append(f"PATHS: {', '.join(more[:-1]) + ' and ' if len(more) > 1 else ''}"
                       f"{more[-1]}, outside PATHS, {'are' if len(more) > 1 else 'is'} "
                       f"converted with {own[0]}"
                       + (f" and {len(own) - 1} more file{'s' if len(own) > 2 else ''} of "
                          "PATHS" if len(own) > 1 else "")
                       + ": they share work items, whose type changes in all of them at once")
    return out


def classified(kdir: Path, kernel_tree: Path, found: list[groups.Group], old: dict[str, str],
               results: dict[str, spatch.Result], api: dict[str, list[str]],
               policies: list[policy.Policy] | None, choices: list[policy.TargetChoice] | None,
               target: str) -> list[list[classify.Outcome]]:
    """After spatch: the subsystems' own workqueues in their drivers' new
    text (target.policy), each group all or nothing (rewrite.classify),
    then its target: TARGET=thread or a subsystem's choice moves it to
    process context (target.thread) unless it must stay on BH, and the
    late queues of the hot paths."""
    if policies is None:
        policies = policy.usable(kernel_tree, [p for p in policy.load()
                                        if any(p.covers(r) for r in results)])
    res = Resolver(kdir)
    kept: dict[int, str] = {}       # group -> why it stays on its subsystem's BH queues
    for n, g in enumerate(found):
        pol = policy.for_group(policies, g.files, old)
        for f in g.files:
            r = results.get(f)
            if pol and r is not None and r.new_text is not None:
                r.new_text = policy.apply(res, pol, f, old[f], r.new_text)
                kept[n] = (f"the {pol.name} subsystem queues its drivers' work on BH "
                           f"workqueues of its own ({', '.join(o for _, o in pol.queues)}), "
                           "so that how that work runs is chosen once for the subsystem.")
    outcomes = [classify.classify_group(g, old, results, api) for g in found]
    choices = policy.targets() if choices is None else choices
    qs = thread.queues(kernel_tree)
    hot = hotpaths.load()
    for n, g in enumerate(found):
        want, why = policy.target_for(choices, g.files, target)
        moving = want == "thread" or target == "thread"
        # a driver that completes block I/O never reaches a queue without
        # WQ_MEM_RECLAIM, whatever a choice says (target.reclaim)
        stays = kept.get(n, "") or (moving and thread.movable(outcomes[n])
                                     and reclaim.why(kdir, g.files, qs)) or ""
        if want == "thread":
            outcomes[n] = thread.thread(outcomes[n], qs, stays)
        elif (stays or why) and target == "thread":
            outcomes[n] = [replace(o, target_why=stays or why) for o in outcomes[n]]
        outcomes[n] = thread.late(outcomes[n], hot)
    return outcomes


class Clock:
    """Seconds per stage, into times (None: not kept)."""

    def __init__(self, times: dict[str, float] | None) -> None:
        self.times, self.last = times, time.monotonic()

    def lap(self, stage: str) -> None:
        now = time.monotonic()
        if self.times is not None:
            self.times[stage] = round(self.times.get(stage, 0) + now - self.last, 1)
        self.last = now


def _chosen(job: tuple[groups.Group, dict[str, str], list[decisions.Decision], float | None,
                       Path | None, list[str], dict[str, str]]) -> groups.Group:
    g, old, decs, timeout, kdir, others, mates = job
    if g.timed_out:             # its facts outran the time limit: refused already
        return g
    try:
        with proc.time_limit(timeout) if timeout else contextlib.nullcontext():
            module = module_reach.codes(kdir, others) if kdir and others else {}
            choose_sites(g, old, decs, module, mates)
    except proc.TimeLimit:
        g.plan = sites.Plan()
        groups.too_long(g, timeout or 0, "planning the calls")
    return g


def header_types(kdir: Path, found: list[groups.Group]) -> None:
    """Each group's types: the members of the structs its files' headers
    define (ctext.ptrtypes.included), for the calls through a pointer
    member (convert.verdicts.analyses.targets)."""
    res = Resolver(kdir)
    seen: dict[str, dict[str, dict[str, str]]] = {}
    for g in found:
        g.types = ptrtypes.included(kdir, g.files, res, seen)


def chosen(found: list[groups.Group], old: dict[str, str], decs: list[decisions.Decision],
           kernel: str, jobs: int, timeout: float | None = None,
           kdir: Path | None = None) -> list[groups.Group]:
    """choose_sites() for every group, in jobs processes when more than one;
    a group that takes more than timeout seconds has its files refused.
    kdir: the tree, whose kbuild files give each group's module files
    (convert.facts.module_reach; None: the group's files only)."""
    log.info(f"sites: planning the calls of {len(found)} groups...")
    mods: dict[str, dict[str, str]] = {}
    work = [(g, {f: g.source.get(f, old[f]) for f in g.files},
             decisions.for_files(decs, set(g.files), kernel), timeout, kdir,
             module_reach.files(kdir, g.files, mods) if kdir else [],
             module_reach.keys(kdir, g.files + module_reach.files(kdir, g.files, mods), mods)
             if kdir else {})
            for g in found]
    if jobs > 1 and len(work) > 1:
        with proc.pool(jobs) as ex:
            return list(ex.map(_chosen, work, chunksize=4))
    return [_chosen(w) for w in work]


def unmatched(found: list[groups.Group], decs: list[decisions.Decision],
              kernel: str) -> list[str]:
    """A line for each decision of this kernel, about a tasklet user of
    the run, that matches no site of it: the driver changed since a person
    read it, and the decision is not applied. A group whose facts or plan
    outran the time limit has no sites to match (its files are refused
    with that reason): its decisions are not said to be stale."""
    lines = []
    for g in found:
        if g.timed_out:
            continue
        for d in decisions.for_files(decs, set(g.files), kernel):
            if not any(d.matches(s.path, s.function, s.api, s.item, s.occurrence)
                       for s in g.plan.sites):
                lines.append(f"{d.source}: {d.file} has no {d.api}() of {d.item} in "
                             f"{d.function}() any more: the decision is not applied; read "
                             "the driver again and update or remove it")
    return lines


def choose_sites(g: groups.Group, old: dict[str, str], decs: list[decisions.Decision],
                 module: dict[str, str] | None = None,
                 mates: dict[str, str] | None = None) -> None:
    """The replacement of every enable/kill/disable/... site of group g
    (verdicts.sites), and each file's text with its chosen calls renamed to
    their markers, which is what spatch reads; module: the masked codes of
    the other files of its kbuild modules, read by the kill analysis;
    mates: each .c file's kbuild module (convert.facts.module_reach.keys)."""
    g.plan = sites.plan({f: mask(old[f]) for f in g.files}, decs, g.hi_keys, module, mates,
                         types=g.types)
    for f, why in g.plan.refusals.items():
        g.refusals.setdefault(f, why)
    for f in g.files:
        g.marked[f], missed = g.plan.mark(f, old[f])
        if missed:
            g.refusals.setdefault(f, f"{missed[0].api}() at line {missed[0].line}: the "
                                     "call could not be told apart on its line")


def check_paths(kdir: Path, paths: list[str]) -> list[str]:
    """PATHS as tree-relative paths, each naming something inside KDIR."""
    rels = []
    for p in paths:
        q = Path(p) if os.path.isabs(p) else kdir / p
        rel = os.path.normpath(os.path.relpath(os.path.abspath(q), kdir))
        if rel == ".." or rel.startswith("../") or not place.inside(q, kdir) \
                and os.path.lexists(q):
            raise InputError(f"PATHS: {p!r} is outside KDIR {kdir}")
        if not os.path.lexists(q):
            glob = " (PATHS are not globs: name files or folders)" \
                if any(c in p for c in "*?[") else ""
            raise InputError(f"PATHS: {p!r} does not exist in KDIR {kdir}{glob}")
        if not place.inside(q.resolve(), kdir):
            raise InputError(f"PATHS: {p!r} leads out of KDIR {kdir} through a symbolic link "
                             f"(to {q.resolve()}): name the tree's own files")
        rels.append(rel)
    return rels


def nothing_usable(flat: list[classify.Outcome], paths: list[str], out: Path) -> None:
    """A run that found no tasklet user in PATHS, or whose every file spatch
    failed on, does not replace the previous OUT: an InputError or ToolError
    that says so (the whole tree without a user still writes the core
    removal)."""
    users = [o for o in flat if o.user]
    if paths and not users:
        raise InputError(f"PATHS {' '.join(paths)} hold no tasklet user: nothing to write; "
                         f"{out} is left as it was")
    failed = [o for o in users if o.status == Status.FAILED]
    if users and len(failed) == len(users):
        raise ToolError(f"spatch failed on every one of the {len(users)} files ({failed[0].path}: "
                        f"{' '.join(failed[0].reason.split())[:160]}); {out} is left as it was")


def convert(kdir_arg: str, paths_arg: list[str], out_arg: str, jobs: int, timeout: int,
            cache_dir: Path | None = cache.DEFAULT, target: str = "bh",
            mod: module.Module | None = None) -> int:
    """make convert; cache_dir None: nothing reused nor kept; target:
    "bh" or "thread" (run()); mod: an external module (M=) converted
    against the kernel kdir, its paths relative to its own root."""
    kdir = Path(kdir_arg).resolve()
    version = kdir_.kernel_version(kdir)
    kdir_.check_bh_workqueues(kdir)
    out = place.resolve(out_arg, kdir)
    place.check_apart(kdir, out, cache_dir)
    src = mod.root if mod else kdir     # where the files are, and what paths are relative to
    if mod:
        module.check_out(out, mod)
        place.check_apart(mod.root, out, cache_dir)     # the module's folder is never written
    paths = check_paths(src, paths_arg)
    decs = decisions.load() + (decisions.load(mod.decisions, mod.decisions_prefix())
                               if mod and mod.decisions else [])
    spatch.check_spatch()
    ident = identity.identity(kdir)     # a bad FROM or DETASKLET_DATE fails now, not at the end
    place.check_ours(out, must_exist=False)
    place.check_room(out)
    start = time.time()
    store = cache.Cache(cache_dir)
    times: dict[str, float] = {}
    with locked(out):
        stage = Staging(out, version, __version__)
        tmp = stage.begin()
        with proc.cleanup(stage.abort):     # a signal ends the run: no scratch left
            try:
                log.info(f"scanning {kdir} ({version}) for tasklet users...")
                problems: Problems = []
                notes: list[str] = []       # the decisions that apply to nothing
                outcomes = run(src, paths, jobs, timeout, problems, decs, kernel=version,
                               store=store, times=times, target=target,
                               policies=[] if mod else None, kernel_tree=kdir, warnings=notes)
                for path, why in problems:
                    log.warning(f"{path}: {why}")
                flat = [o for g in outcomes for o in g]
                nothing_usable(flat, paths, out)
                clock = Clock(times)
                log.info("writing all.patch and the reports...")
                preps = [] if mod else policy.preps(
                    kdir, policy.load(),
                    {o.path: o.new for o in flat if o.status == Status.CONVERTED})
                write.patch(tmp, outcomes, store, jobs, preps)
                # a module's conversion never removes the kernel's tasklet core
                core = [] if mod else write.core_removal(tmp, kdir, flat, paths, problems)
                write.report(tmp, version, flat, problems, preps, paths, core, target,
                             thread.queues(kdir), mod.record(kdir) if mod else None, notes)
                clock.lap("write")
                stage.carry("bench")        # make bench's result, quoted by the cover letters
                stage.carry("branches.json")    # the branches make branches may move
                npatch = len(
                    series_module.build(mod, kdir, tmp, series_module.ident_of(mod, ident))
                    if mod else series_write.build(kdir, tmp, ident, jobs, str(out),
                                                   store=store, times=times, fresh=True))
                write.timings(tmp, kdir, version, times, store)
            except OSError as e:
                stage.abort()
                raise OutError(f"cannot write the results ({e.strerror}"
                               f"{': ' + e.filename if e.filename else ''}); "
                               f"{out} is left as it was") from None
            except BaseException:
                stage.abort()
                raise
        with proc.held():                   # no signal between OUT's two renames
            stage.commit()
    users = [o for o in flat if o.user]
    counts = {s: sum(o.status == s for o in users) for s in Status}
    tail = f"; {len(problems)} paths not scanned (report.md)" if problems else ""
    log.info(f"done in {time.time() - start:.0f} s: of the {len(users)} files that use the "
             f"tasklet API, {counts[Status.CONVERTED]} converted, {counts[Status.UNCONVERTED]} "
             f"unconverted, {counts[Status.FAILED]} failed; report.json lists {len(flat)} files "
             f"(and {len(flat) - len(users)} of their groups that name no API); {npatch} "
             f"patches{tail}")
    log.info("time by stage: " + ", ".join(f"{k} {v:.0f} s" for k, v in times.items())
             + f"; {store.summary()}")
    print(f"patches: {out / 'all.patch'} and {out / 'series'}/; report: {out / 'report.md'}")
    return 0
