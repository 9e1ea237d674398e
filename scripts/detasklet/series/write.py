# SPDX-License-Identifier: GPL-2.0-only
"""make series: OUT/series/ from OUT and the pristine KDIR, without spatch.

load() reads all.patch, groups.json and report.json back (out.files) and
the pristine texts of the changed files; an all.patch that is not in the
canonical form (git headers, laid out by ctext.layout) is first rewritten
in it, so that the series and all.patch agree. build() plans the patches
(series.plan), asks get_maintainer.pl (series.maintainers), writes one
mail per patch and the cover letter (series.mbox), and the "## Series"
section of report.md. A cover letter quotes OUT/bench/bench.json (make
bench OUT=...) for the hot paths its series touches (series.hotpaths),
and says nothing of latency when there is no such file. Everything is a function of the inputs, the
identity, the date and the base: a second run writes the same bytes.
"""

from __future__ import annotations

import json
import logging
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from .. import cache
from ..ctext import layout
from ..ctext.gitdiff import FileDiff, apply, file_diff, parse
from ..errors import InputError, PatchError
from ..kdir import kernel_version
from ..out import files as outfiles, place
from ..out.staging import changed, locked, write_file
from ..out.files import Status
from . import evidence, gitmail, hotpaths, letter, maintainers, mbox, plan as plan_, trees
from .identity import Ident, identity
from .plan import Patch
from .trees import Tree

log = logging.getLogger("detasklet")


def load(kdir: Path, out: Path, fresh: bool = False) -> tuple[
        dict[str, FileDiff], dict[str, str], list[list[str]], dict]:
    """(diffs by path, pristine texts, groups, report.json) of an OUT,
    checked: a damaged or inconsistent OUT is an InputError. all.patch is
    written again in its canonical layout, unless fresh (convert wrote it
    so a moment ago)."""
    rep = outfiles.load_report(out)
    text = outfiles.load_patch(out)
    try:
        fds = {fd.path: fd for fd in parse(text)}
    except PatchError as e:
        raise InputError(f"{out}/all.patch is damaged ({e}): run make convert again") from None
    outfiles.check_consistent(out, rep, list(fds))
    old = {}
    for p in fds:
        try:
            old[p] = (kdir / p).read_bytes().decode("utf-8", errors="surrogateescape")
        except OSError as e:
            raise InputError(f"cannot read {p} of KDIR ({e.strerror}): is KDIR the tree "
                             "all.patch was made from?") from None
    try:
        canon = {p: fd.text for p, fd in sorted(fds.items())} if fresh else {
            p: file_diff(p, old[p], layout.tidy(old[p], apply(old[p], fd)))
            for p, fd in sorted(fds.items())}
    except PatchError as e:
        raise InputError(f"{out}/all.patch does not apply to KDIR {kdir} ({e}): is KDIR "
                         "the tree it was made from?") from None
    if "".join(canon.values()) != text:
        write_file(out, "all.patch", "".join(canon.values()))
    fds = {p: parse(t)[0] for p, t in canon.items() if t}
    try:
        fds = after_preps(fds, old, rep.get("driver_prep", []))
    except PatchError as e:
        raise InputError(f"{out}/report.json: a driver prep patch does not apply ({e}): run "
                         "make convert again") from None
    groups = [[p for p in g if p in fds] for g in outfiles.load_groups(out)]
    groups = [g for g in groups if g]
    seen = {p for g in groups for p in g}
    groups += [[p] for p in sorted(fds) if p not in seen]
    return fds, old, groups, rep


def core_diffs(out: Path, rep: dict) -> list[FileDiff]:
    """The diffs of OUT/tasklet-free.patch (report.json "core")."""
    try:
        return parse((out / rep["core"]["patch"]).read_text(errors="surrogateescape"))
    except (OSError, PatchError) as e:
        raise InputError(f"{out}/{rep['core']['patch']} is missing or damaged ({e}): run "
                         "make convert again") from None


def after_preps(fds: dict[str, FileDiff], old: dict[str, str],
                preps: list[dict]) -> dict[str, FileDiff]:
    """fds with each file of a driver's own patches (report.json
    "driver_prep": its fix, its prep patch, each diffed from the text
    before it, in this order) diffed from the text after the last of them:
    the conversion comes after them in the series. A file they alone
    change is not in the conversion."""
    fds, cur = dict(fds), dict[str, str]()
    for pr in preps:
        for fd in parse(pr["diff"]):
            if fd.path in fds:
                cur[fd.path] = apply(cur.get(fd.path, old[fd.path]), fd)
    for path, mid in cur.items():
        rest = parse(file_diff(path, mid, apply(old[path], fds[path])))
        if rest:
            fds[path] = rest[0]
        else:                   # the driver's own patches are the whole change
            del fds[path]
    return fds


def report_section(patches: list[Patch], series: "list[Series]") -> list[str]:
    src = {s: sum(p.source == s for p in patches) for s in ("history", "table", "path")}
    n = len(patches)
    named = sum(p.named for p in patches)
    lines = ["## Series", "",
             f"{n} patches in {len(series)} series, one per maintainer tree (`series/README` "
             "lists them): " + ", ".join(f"{s.folder} ({len(s.patches)})" for s in series)
             + ".", "",
             "One patch per driver. Subject prefixes: "
             f"{src['history']} from git history, {src['table']} from MAINTAINERS and the "
             f"subsystem table, {src['path']} from the bare path "
             f"({100 * (src['history'] + src['table']) / max(n, 1):.0f}% with a subsystem "
             f"prefix); the driver name of {named} ({100 * named / max(n, 1):.0f}%) "
             "is named by a MAINTAINERS section of its files or by their paths.", ""]
    cross = [p for p in patches if p.shared]
    if cross:
        lines += ["Patches that cross MAINTAINERS sections, and why:", ""]
        for p in cross:
            lines.append(f"- `{p.subject}` ({len(p.files)} files; sections: "
                         f"{', '.join(p.entries)}): {p.shared}")
        lines.append("")
    unnamed = [p for p in patches if not p.named]
    if unnamed:
        lines += ["Subjects whose driver name is not in MAINTAINERS or the paths:", ""]
        lines += [f"- `{p.subject}`: {', '.join(p.files)}" for p in unnamed]
        lines.append("")
    fallback = [p for p in patches if p.source == "path"]
    if fallback:
        lines += ["Subjects whose prefix is only the path (no table entry):", ""]
        lines += [f"- `{p.subject}`: {', '.join(p.files)}" for p in fallback]
    return lines + patch_index(series)


def patch_name(n: int, p: Patch) -> str:
    """The file name of the n-th mail of a series."""
    return f"{n:04d}-{mbox.slug(p.subject)}.patch"


def patch_index(series: "list[Series]") -> list[str]:
    """report.md: each file a patch changes, and that patch's mail."""
    rows = sorted((f, f"series/{s.folder}/{patch_name(n, p)}")
                  for s in series for n, p in enumerate(s.patches, 1) for f in p.files)
    if not rows:
        return []
    return ["", "### Patches, by file", "", "| file | patch |", "|---|---|"] + \
        [f"| `{f}` | `{name}` |" for f, name in rows]


@dataclass
class Series:
    folder: str                # series/<folder>/
    tree: Tree
    patches: list[Patch]
    part: int = 1
    parts: int = 1
    # the folder of the fixes series this one applies on top of (net, for
    # net-next's parts), "" when it applies on the base alone
    needs: str = ""
    fixes_of: str = ""         # a fixes series: the tree whose drivers it fixes


def split(patches: list[Patch]) -> list[Series]:
    """One series per tree (in the order of the trees' names), cut into
    parts where the tree takes at most so many patches at once. The
    drivers' fixes of a tree whose fixes branch takes them apart
    (trees.toml fixes_tag: net for net-next) are a series of their own,
    before the tree's, whose parts all apply on top of it."""
    by: dict[str, list[Patch]] = {}
    for p in patches:
        by.setdefault(p.tree.name, []).append(p)
    out = []
    for name in sorted(by):
        # a policy's prep patch first, the core removal last
        ps = sorted(by[name], key=lambda p: 0 if p.prep else 2 if p.core else 1)
        # the tree as a T: line names it, where a patch found it so
        tree = next((p.tree for p in ps if p.tree.url), ps[0].tree)
        apart = [p for p in ps if p.fix] if tree.fixes_tag else []
        needs = ""
        if apart:
            # a tree of that name may have a series of its own (6.12: net.git)
            needs = tree.fixes_tag if tree.fixes_tag not in by else f"{tree.fixes_tag}-fixes"
            out.append(Series(needs, Tree(needs, "", tree.fixes_tag, 0, tree.why,
                                          f"{tree.fixes or needs}: the fixes of {tree.name}",
                                          tree.fixes), apart, fixes_of=tree.name))
            ps = [p for p in ps if not p.fix]
        cuts = _keep_preps(ps, trees.parts(tree, len(ps)))
        for k, (a, b) in enumerate(cuts, 1):
            folder = name if len(cuts) == 1 else f"{name}-{k}"
            # the fixes first of all: the fixes branch takes them alone
            part = sorted(ps[a:b], key=lambda p: not p.fix)
            out.append(Series(folder, tree, part, k, len(cuts), needs))
    return out


def _keep_preps(ps: list[Patch], cuts: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """cuts with no part ending on a driver's fix or prep patch: it goes to
    the next part, with the conversion that applies on top of it."""
    out: list[tuple[int, int]] = []
    for a, b in cuts:
        a = out[-1][1] if out else a
        while b < len(ps) and b - 1 > a and ps[b - 1].driver_prep:
            b -= 1
        out.append((a, b))
    if out and out[-1][1] < len(ps):
        out[-1] = (out[-1][0], len(ps))
    return out


def tree_users(series: list[Series], s: Series, rep: dict, left_tree: dict[str, str]) -> int:
    """The files of s's tree that use the tasklet API, over all its parts:
    those its parts' patches change and those left unconverted; 0 for a
    tree sent in one part."""
    if s.parts == 1:
        return 0
    files = {f for t in series if t.tree.name == s.tree.name and not t.fixes_of
             for p in t.patches if not p.prep and not p.core for f in p.files}
    return len(files | {f["path"] for f in rep["files"] if f.get("status") != Status.CONVERTED
                        and left_tree.get(f["path"]) == s.tree.name})


def cover_title(s: Series) -> str:
    return ("Convert tasklet users to workqueues" if any(p.thread for p in s.patches)
            else "Convert tasklet users to BH workqueues") + (
        f" (part {s.part} of {s.parts})" if s.parts > 1 else "")


def part_text(s: Series) -> str:
    """What a series sent in parts says of the other parts: which come
    before it and which follow (none after the last)."""
    if s.parts == 1:
        return ""
    others = [k for k in range(1, s.parts + 1) if k != s.part]
    before = [k for k in others if k < s.part]
    after = [k for k in others if k > s.part]

    def parts(ks: list[int]) -> str:
        words = [str(k) for k in ks]
        return ("part " if len(ks) == 1 else "parts ") + (
            words[0] if len(ks) == 1 else ", ".join(words[:-1]) + " and " + words[-1])
    where = (f"{parts(after)} {'follows' if len(after) == 1 else 'follow'} this one"
             if not before else f"it comes after {parts(before)}" + (
                 f", and {parts(after)} {'follows' if len(after) == 1 else 'follow'} it"
                 if after else ""))
    return (f"This is part {s.part} of {s.parts}: {s.tree.why.rstrip('.')}, so the tree's "
            f"patches are sent in {s.parts} parts, one at a time, each once the one before "
            f"is applied; {where}.")


def index_text(series: list[Series], rep: dict) -> str:
    """series/README: the series, in the order to send them."""
    core = [s.folder for s in series if any(p.core for p in s.patches)]
    last = ([f"the other. The removal of the tasklet core, the last patch of {core[0]},",
             "goes last, once every other series is applied."] if core else
            ["the other. The removal of the tasklet core comes last, once every",
             "series is applied: make tasklet-free writes it."])
    fixes = [s for s in series if s.fixes_of]
    first = ([f"Send {', '.join(s.folder for s in fixes)} (drivers' fixes, each for its fixes",
              "branch) first: the series of the tree they fix apply on top of them",
              "(prerequisite-patch-id: in their cover letters) and wait until they are",
              "merged there."] if fixes else [])
    lines = [f"Tasklet to BH workqueue conversion of Linux {rep.get('kernel', '')}:",
             f"{len(series)} series, one per maintainer tree (parts where a tree",
             "takes a limited number of patches at once). Send each folder as one",
             "thread (git send-email <folder>/*.patch); a tree's parts one after",
             *last, *first, "", f"{'folder':24} {'patches':>7}  tree"]
    for s in series:
        t = s.tree.url.split()
        url = t[1] if len(t) > 1 else t[0] if t else f"({s.tree.via})"
        lines.append(f"{s.folder:24} {len(s.patches):>7}  {url}")
    return "\n".join(lines) + "\n"


def write_identity(out: Path, ident: Ident, needs: dict[str, str] | None = None) -> None:
    """report.json "series": who signed, when, on which base, so that
    make compile-test writes the same mails again with its results; and
    "needs": each series folder that applies on top of another (net-next-1
    on net), which send-check, make branches and tests/am3.py apply
    first."""
    data = outfiles.load_report(out)
    data["series"] = {"from": ident.name_email, "date": ident.date, "base": ident.base}
    if needs:
        data["series"]["needs"] = needs
    write_file(out, "report.json", json.dumps(data, indent=1) + "\n")


def set_targets(patches: list[Patch], rep: dict) -> None:
    """Each patch's process-context queues when all its files moved there
    (TARGET=thread), their guards, or why it stays on BH."""
    moved = {f["path"]: f for f in rep["files"] if f.get("target") == "thread"}
    for p in patches:
        p.thread = rep.get("thread_queues", {}) if p.files and not (
            p.prep or p.driver_prep or p.core) and all(f in moved for f in p.files) else {}
        p.guards = [g for f in p.files for g in moved.get(f, {}).get("guards", [])]
        p.kept_bh = "" if p.thread or rep.get("target") != "thread" else next(
            (f.get("target_why", "") for f in rep["files"]
             if f["path"] in p.files and f.get("target_why")), "")


def build(kdir: Path, out: Path, ident: Ident, jobs: int = 2, out_name: str = "",
          store: cache.Cache | None = None, times: dict[str, float] | None = None,
          fresh: bool = False) -> list[Patch]:
    """series/ (and the report.md section) from OUT and the pristine KDIR;
    store keeps get_maintainer.pl's answers; times gets the seconds of the
    maintainers and series stages."""
    start = time.monotonic()
    fds, old, groups, rep = load(kdir, out, fresh)
    ev = evidence.load(out, rep)
    notes = {f["path"]: f["notes"] for f in rep["files"] if f.get("notes")}
    sites = {f["path"]: f["sites"] for f in rep["files"] if f.get("sites")}
    keys = {f["path"]: f["keys"] for f in rep["files"] if "keys" in f}
    mapping = {f["path"]: f["mapping"] for f in rep["files"] if "mapping" in f}
    commented = {f["path"] for f in rep["files"] if f.get("tasklet_comments")}
    index = plan_.index_of(kdir)
    patches = plan_.plan(kdir, fds, old, groups, index, rep.get("prep", []),
                         rep.get("driver_prep", []))
    set_targets(patches, rep)
    if rep.get("core"):
        patches.append(plan_.core_patch(kdir, core_diffs(out, rep), index))
    log.info(f"series: the {len(fds)} files all.patch changes (converted, and the prep patches') "
             f"{'and the core removal ' if rep.get('core') else ''}in {len(patches)} patches; "
             "asking get_maintainer.pl")
    asked = time.monotonic()
    maintainers.address(kdir, patches, fds, store, jobs)
    maintainers.add_taker(patches, index)
    if times is not None:
        times["maintainers"] = round(time.monotonic() - asked, 1)
        times["series"] = round(asked - start, 1)
        start = time.monotonic()
    sdir = out / "series"
    if sdir.is_dir():
        shutil.rmtree(sdir)     # OUT is the tool's (out.place): series/ is ours
    sdir.mkdir(parents=True)
    series = split(patches)
    log.info(f"series: writing {len(series)} series of mails")
    table, lists = trees.load_table(), trees.load_lists()
    left_tree = {f["path"]: trees.tree_of([f["path"]], index, table, lists).name
                 for f in rep["files"] if f.get("status") != Status.CONVERTED}
    bench, hot = hotpaths.read_bench(out), hotpaths.load()
    folder_of = {s.folder: k for k, s in enumerate(series)}
    needs = [folder_of.get(s.needs, -1) for s in series]
    prereqs: list[list[str]] = []
    made = gitmail.mails(kdir, ident, old, [
        [mbox.patch_mail(p, ident, fds, ev, notes, sites, keys, mapping, commented) for p in s.patches]
        for s in series], [s.tree.tag for s in series], needs, prereqs)
    signature = gitmail.git_version()
    who = ident.name_email.split(" <")[0]
    for s, (tip, texts), pre in zip(series, made, prereqs):
        d = sdir / s.folder
        d.mkdir()
        for n, (p, text) in enumerate(zip(s.patches, texts), 1):
            (d / patch_name(n, p)).write_text(text, errors="surrogateescape")
        if s.fixes_of:
            lines = letter.fixes_cover(s.patches, fds, who, ident.base, f"the {s.fixes_of} "
                                       "tree", [t.folder for t in series if t.needs == s.folder])
            title = "Driver fixes needed before their conversion to BH workqueues"
            (d / "0000-cover-letter.patch").write_text(
                mbox.cover_file(s.patches, ident, lines, title, tip, signature, s.tree.tag),
                errors="surrogateescape")
            continue
        mine = {f for p in s.patches for f in p.files}
        srep = {**rep, "files": [f for f in rep["files"] if f["path"] in mine or (
            s.part == 1 and left_tree.get(f["path"]) == s.tree.name)]}
        fix = series[folder_of[s.needs]] if s.needs else None   # its tag: [PATCH wireless]
        after = [p for p in fix.patches if set(p.files) & mine] if fix else []
        lines = letter.cover(s.patches, srep, fds, ev, who, ident.base,
                             f"the {s.tree.name} tree", part_text(s), bench, hot, after,
                             fix.tree.tag if fix else "", pre if after else [],
                             tree_users(series, s, rep, left_tree))
        (d / "0000-cover-letter.patch").write_text(
            mbox.cover_file(s.patches, ident, lines, cover_title(s), tip, signature),
            errors="surrogateescape")
    if series:
        (sdir / "README").write_text(index_text(series, rep))
    write_identity(out, ident, {s.folder: s.needs for s in series if s.needs})
    if times is not None:
        times["series"] = round(times.get("series", 0) + time.monotonic() - start, 1)
    outfiles.add_section(out, report_section(patches, series))
    return patches


def rebuild(kdir: Path, out: Path, jobs: int = 2,
            cache_dir: Path | None = cache.DEFAULT) -> None:
    """series/ again with the identity it was written with (after make
    compile-test, so that each message says how its files built)."""
    rec = outfiles.load_report(out).get("series")
    if not isinstance(rec, dict) or not (out / "series").is_dir():
        return
    ident = Ident(str(rec.get("from", "")), int(rec.get("date", 0)), str(rec.get("base", "")),
                  "report.json")
    build(kdir, out, ident, jobs, store=cache.Cache(cache_dir))


def main(kdir_arg: str, out_arg: str, from_: str | None, base: str | None, jobs: int,
         cache_dir: Path | None = cache.DEFAULT) -> int:
    """make series: series/ again in an existing OUT."""
    kdir = Path(kdir_arg).resolve()
    kernel_version(kdir)
    out = place.existing(kdir, out_arg)
    place.check_apart(kdir, out, cache_dir)
    ident = identity(kdir, from_, base)
    with locked(out), changed(out) as tmp:     # series/ and the reports swapped in whole
        patches = build(kdir, tmp, ident, jobs, str(out), store=cache.Cache(cache_dir))
    print(f"series: {len(patches)} patches in {out / 'series'}/, one folder per tree "
          f"(README lists them)")
    return 0
