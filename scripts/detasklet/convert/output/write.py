# SPDX-License-Identifier: GPL-2.0-only
"""Stage 5: what a convert writes into OUT.

all.patch: every converted file, its changed lines laid out (ctext.layout),
in git form; groups.json: the groups of converted files that share a
tasklet (what make series needs); report.json: every file that uses the
tasklet API, with its status, reason, mapping rows, tasklets, API, notes
and the verdict of each enable/kill/disable site (convert.verdicts.sites);
report.md: the same per subsystem, for a person. A policy's prep patch
(convert.target.policy) is in all.patch and groups.json too, and in report.json
"prep".
"""

from __future__ import annotations

import json
import logging
from collections import defaultdict
from pathlib import Path

from ... import cache, proc
from ...ctext import layout
from . import tasklet_free
from ...ctext.gitdiff import file_diff, parse
from ...errors import CoreError
from ...ctext.lex import mask
from ...ctext.tasklet import item_names, kept_tasklet_comments
from ...mapping import Row, row_key, used
from ...out import origin
from ...out.files import Status
from . import rules_got
from ..rewrite.classify import Outcome
from ..target.policy import Prep
from ..target.thread import LATE

log = logging.getLogger("detasklet")


def _laid_out_diff(job: tuple[str, str, str]) -> str:
    path, old, new = job
    return file_diff(path, old, layout.tidy(old, new))


def diffs(conv: list[Outcome], store: cache.Cache | None = None, jobs: int = 1) -> list[str]:
    """The git-form diff of each converted file, its changed lines laid out
    (ctext.layout); kept in store, and made in jobs processes (difflib takes
    seconds on a big file)."""
    code = store.code("detasklet.ctext.layout", "detasklet.ctext.gitdiff") \
        if store and store.root else ""
    keys = [cache.digest(code, o.path, o.old, o.new) if code else "" for o in conv]
    kept = [store.get("diff", k) if k and store else None for k in keys]
    todo = [(o.path, o.old, o.new) for o, got in zip(conv, kept) if got is None]
    if jobs > 1 and len(todo) > 1:
        with proc.pool(jobs) as ex:
            made = iter(list(ex.map(_laid_out_diff, todo, chunksize=4)))
    else:
        made = iter([_laid_out_diff(j) for j in todo])
    out = []
    for k, got in zip(keys, kept):
        if got is None:
            text = next(made)
            if k and store:
                store.put("diff", k, {"diff": text})
            out.append(text)
        else:
            out.append(got["diff"])
    return out


def patch(out: Path, groups: list[list[Outcome]], store: cache.Cache | None = None,
          jobs: int = 1, preps: list[Prep] | None = None) -> None:
    """all.patch and groups.json of the converted files, and of the prep
    patches of the policies they use (each prep one group)."""
    conv_groups = [sorted((o for o in g if o.status == Status.CONVERTED), key=lambda o: o.path)
                   for g in groups]
    conv_groups = [g for g in conv_groups if g]
    conv = sorted((o for g in conv_groups for o in g), key=lambda o: o.path)
    texts = dict(zip([o.path for o in conv], diffs(conv, store, jobs)))
    for pr in preps or []:
        for f in sorted(pr.new):
            texts[f] = _laid_out_diff((f, pr.old[f], pr.new[f]))
    (out / "all.patch").write_text("".join(texts[p] for p in sorted(texts)))
    names = [[o.path for o in g] for g in conv_groups] + [sorted(pr.new) for pr in preps or []]
    (out / "groups.json").write_text(json.dumps({"groups": sorted(names)}, indent=1) + "\n")


CORE_PATCH = "tasklet-free.patch"


def core_removal(out: Path, kdir: Path, outcomes: list[Outcome], paths: list[str],
                 unscanned: list[tuple[str, str]]) -> list[str]:
    """OUT/tasklet-free.patch, the removal of the tasklet core, when this
    convert left no user of the API: the whole tree was converted (no
    PATHS), every file that uses the API converted and every path scanned.
    Its files; [] when it is not made (a core of another shape is said)."""
    if paths or unscanned or not outcomes or any(
            o.status != Status.CONVERTED for o in outcomes):
        return []
    try:
        text = tasklet_free.patch(kdir)
    except CoreError as e:
        log.warning(f"every user is converted, but the tasklet core cannot be removed: {e}")
        return []
    (out / CORE_PATCH).write_text(text, errors="surrogateescape")
    return [fd.path for fd in parse(text)]


def driver_preps(outcomes: list[Outcome]) -> list[dict]:
    """report.json "driver_prep": each driver patch of its own (cocci/drivers/,
    a `// Fix:` or `// Prep:` line) that converted files went through, with
    its files, subject, message, "fix" and "fixes" for a fix, and diff
    (from the text before it, the pristine one for the first, to the text
    after it); the fixes first. The series put a fix first in its tree's
    series and a prep patch right before the driver's conversion, which
    then starts from the text after the last of them."""
    by: dict[str, tuple[dict, list[str]]] = {}
    for o in sorted(outcomes, key=lambda o: o.path):
        if o.status != Status.CONVERTED:
            continue
        before = o.old
        for rec, text in o.steps:
            after = layout.tidy(before, text)
            d = file_diff(o.path, before, after)
            if d:
                by.setdefault(rec["source"], (rec, []))[1].append(d)
            before = after
    return [{**rec, "files": [parse(d)[0].path for d in ds], "diff": "".join(ds)}
            for rec, ds in sorted(by.values(), key=lambda v: (not v[0].get("fix"),
                                                              v[0]["source"]))]


def subsystem(path: str) -> str:
    parts = path.split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0]


def _table_text(o: Outcome) -> str:
    """The text whose API the file's table lists: the one the rules
    converted, or, when a driver patch rewrote it in place, the one the
    conversion patch starts from (its API is what the patch removes; the
    patch's `// Mapping:` rows say what became of what it rewrote)."""
    if o.mapped is not None:
        return o.steps[-1][1] if o.steps else o.old
    return o.base or o.old


def _got(r: Row, got: str, mapped: dict[str, str]) -> str:
    """A row of report.json "rules" with the driver patch's own row for
    its key: added to what the sites got, else in place of the generic
    row."""
    mine = mapped.get(r.key)
    if not mine:
        return got
    return got + " or " + mine.partition(" -> ")[2] if got != r.new else mine


def _record(o: Outcome, thread: bool = False) -> dict:
    """A file's entry of report.json "files". rules: the rows of the
    mapping its old text used (the text the rules converted when something
    rewrote it first), each as this file got it (convert.output.rules_got: its
    workqueues, its sites' replacements); then keys, those rows' keys, for
    the commit message's table (not the diff's removed lines). thread (TARGET=thread): each
    converted file's target, why it stayed on BH, and its guards
    (convert.target.thread)."""
    rows = used(mask(_table_text(o))) if o.status == Status.CONVERTED else []
    mapped = {row_key(r): r for r in o.mapped or []}
    return {"path": o.path, "status": o.status, "reason": o.reason,
            "rules": [_got(r, g, mapped) for r, g in
                      zip(rows, rules_got.got(rows, o.old, o.new, o.sites))],
            "tasklets": item_names(o.old),
            "api": o.api, "notes": o.notes, "sites": o.sites,
            **({"parse": o.parse} if o.parse else {}),
            **({"keys": [row.key for row in rows]}
               if o.base and o.status == Status.CONVERTED else {}),
            **({"mapping": mapped} if mapped and o.status == Status.CONVERTED else {}),
            # the driver's comments that say tasklet, kept (series/message.py)
            **({"tasklet_comments": n} if o.status == Status.CONVERTED
               and (n := kept_tasklet_comments(o.old, o.new)) else {}),
            **({"target": o.target, "target_why": o.target_why, "guards": o.guards}
               if thread and o.status == Status.CONVERTED else {})}


def report(out: Path, kernel: str, outcomes: list[Outcome],
           unscanned: list[tuple[str, str]] | None = None,
           preps: list[Prep] | None = None, paths: list[str] | None = None,
           core: list[str] | None = None, target: str = "bh",
           queues: dict[str, str] | None = None, module: dict | None = None,
           warnings: list[str] | None = None) -> None:
    """report.json and report.md; unscanned: the paths the scan could not
    read or would not follow (symbolic links out of the tree), with why;
    paths: the PATHS converted ([]: the whole tree); core: the files of
    the core removal (OUT/tasklet-free.patch), made when no user is left;
    target: "bh" or "thread" (convert.target.thread), and for thread the
    process-context workqueue that replaces each BH one (queues); module:
    the external module (M=) the paths are relative to (detasklet.module);
    warnings: what the run could not apply (a decision that matches
    nothing), in report.json "warnings" and a section of report.md."""
    # a subsystem's own target choice may move some work in a bh run
    thread = target == "thread" or any(o.target == "thread" for o in outcomes)
    files = [_record(o, thread) for o in sorted(outcomes, key=lambda o: o.path)]
    data: dict = {"kernel": kernel, "target": target, "paths": paths or [], "files": files}
    if thread:
        data["thread_queues"] = queues or {}
    if module:
        data["module"] = module
    if core:
        data["core"] = {"patch": CORE_PATCH, "files": core,
                        "to_sections": list(tasklet_free.TO_SECTIONS)}
    if preps:
        data["prep"] = [pr.record() for pr in preps]
    drivers = driver_preps(outcomes)
    if drivers:
        data["driver_prep"] = drivers
    if warnings:
        data["warnings"] = warnings
    if unscanned:
        data["unscanned"] = [{"path": p, "reason": why} for p, why in sorted(unscanned)]
    (out / "report.json").write_text(json.dumps(data, indent=1) + "\n")
    by: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        by[subsystem(o.path)].append(o)
    users = [o for o in outcomes if o.user]
    n = len(users)
    c = sum(o.status == Status.CONVERTED for o in users)
    lines = [f"# detasklet report: Linux {kernel}, target {target}", "",
             *([f"External module {module['name']} (M={module['root']}); paths are "
                "relative to its folder.", ""] if module else []),
             f"{c} of {n} files converted ({100 * c / max(n, 1):.1f}%).", "",
             "| subsystem | files | converted | unconverted | failed |",
             "|---|---:|---:|---:|---:|"]
    for sub in sorted(by):
        count = {s: sum(o.status == s for o in by[sub]) for s in Status}
        lines.append(f"| {sub} | {len(by[sub])} | {count[Status.CONVERTED]} | "
                     f"{count[Status.UNCONVERTED]} | {count[Status.FAILED]} |")
    lines += sites_section(outcomes)
    if thread:
        lines += thread_section(outcomes)
    lines += later_sections(outcomes, preps or [], warnings or [], unscanned or [])
    (out / "report.md").write_text("\n".join(lines) + "\n")


def later_sections(outcomes: list[Outcome], preps: list[Prep], warnings: list[str],
                   unscanned: list[tuple[str, str]]) -> list[str]:
    """report.md after its tables: the subsystem policies, the reviewer's
    notes, the warnings, the code spatch could not parse, the paths not
    scanned and the files not converted, each with why."""
    lines: list[str] = []
    for pr in preps:
        pol = pr.policy
        lines += ["", f"## Subsystem policy: {pol.name}", "",
                  f"The converted files under {', '.join(f'`{p}`' for p in pol.paths)} queue "
                  "on " + ", ".join(f"`{o}` (not `{s}`)" for s, o in pol.queues)
                  + f", which a first patch adds ({', '.join(f'`{f}`' for f in sorted(pr.new))}: "
                  f"\"{pol.subject}\"). Why: " + " ".join(pol.why.split())]
    noted = [o for o in sorted(outcomes, key=lambda o: o.path) if o.notes]
    if noted:
        lines += ["", "## Converted, with a note for the reviewer", ""]
        lines += [f"- `{o.path}`: {n}" for o in noted for n in o.notes]
    if warnings:
        lines += ["", "## Warnings", ""] + [f"- {w}" for w in warnings]
    parsed = [o for o in sorted(outcomes, key=lambda o: o.path) if o.parse]
    if parsed:
        lines += ["", "## Code spatch could not parse", "",
                  "spatch skips what it cannot parse; a file is converted only when no "
                  "tasklet API is in that code.", ""]
        lines += [f"- `{o.path}` ({o.status}): {o.parse}" for o in parsed]
    if unscanned:
        lines += ["", "## Not scanned, and why", "",
                  "These paths could not be read or lead out of the tree: tasklet users "
                  "among them are not in this report.", ""]
        lines += [f"- `{p}`: {why}" for p, why in sorted(unscanned)]
    left = [o for o in sorted(outcomes, key=lambda o: o.path) if o.status != Status.CONVERTED]
    if left:
        lines += ["", "## Not converted, and why", ""]
        lines += [f"- `{o.path}` ({o.status}): {o.reason}" for o in left]
    return lines


def thread_section(outcomes: list[Outcome]) -> list[str]:
    """report.md, TARGET=thread: which converted files moved to process
    context, each guarded callback, and the files that stayed on BH
    workqueues with why."""
    conv = [o for o in sorted(outcomes, key=lambda o: o.path) if o.status == Status.CONVERTED]
    moved = [o for o in conv if o.target == "thread"]
    stayed = [o for o in conv if o.target != "thread"]
    lines = ["", "## Target thread", "",
             f"{len(moved)} converted files run their work in process context, "
             f"{len(stayed)} stay on BH workqueues. Each callback of a moved file runs "
             "between local_bh_disable() and local_bh_enable() (its guard): no analysis has "
             "shown that a callback's locks make the guard unneeded.", ""]
    lines += [f"- `{o.path}:{g['line']}` {g['work_function']}() runs {g['callback']}() with "
              "softirqs off" for o in moved for g in o.guards]
    late = [(o.path, n) for o in moved for n in o.notes if n.startswith(LATE)]
    if late:
        lines += ["", "Moved to process context, where a buffer overflows or the device "
                  "stalls when the work runs late:", ""]
        lines += [f"- `{p}`: {n}" for p, n in late]
    if stayed:
        lines += ["", "Converted to BH workqueues, and why not to process context:", ""]
        lines += [f"- `{o.path}`: {' '.join(o.target_why.split())}" for o in stayed]
    return lines


def sites_section(outcomes: list[Outcome]) -> list[str]:
    """report.md: every enable/kill/disable/unlock_wait site and every
    decided schedule of the converted files, by verdict, then each one that
    is not a teardown kill, with the reason."""
    recs = [s for o in sorted(outcomes, key=lambda o: o.path) for s in o.sites if s["verdict"]]
    if not recs:
        return []
    count: dict[tuple[str, str, str], int] = defaultdict(int)
    for s in recs:
        count[(s["api"], s["replacement"], s["verdict"]
               + (f" ({s['analysis']})" if s["verdict"] == "exact" else ""))] += 1
    lines = ["", "## Sites, by verdict", "",
             "Every call whose replacement is not the same operation, in the converted "
             "files: exact (an analysis proves it), tracked (the enable queues again only "
             "if a run was asked for), decided (a decision for the driver, in decisions/).",
             "", "| call | becomes | verdict | sites |", "|---|---|---|---:|"]
    lines += [f"| {a}() | {r} | {v} | {n} |" for (a, r, v), n in sorted(count.items())]
    lines += ["", "Each site but the teardown kills:", ""]
    lines += [f"- `{s['path']}:{s['line']}` {s['function']}(): {s['api']}({s['item']}) -> "
              f"{s['replacement']}, {s['verdict']}: {s['why']}"
              for s in recs if s["analysis"] != "teardown"]
    return lines


def timings(out: Path, kdir: Path, kernel: str, times: dict[str, float],
            store: cache.Cache | None = None) -> None:
    """run.json, apart from the result: the seconds of each stage of this
    run, how many results it reused and computed, and the tree it read."""
    origin.write_run(out, kdir, kernel, times,
                     {"reused": store.hits, "computed": store.misses}
                     if store and store.root else None)
