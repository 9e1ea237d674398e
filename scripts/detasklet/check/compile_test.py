# SPDX-License-Identifier: GPL-2.0-only
"""make compile-test: prove that every converted file still builds (allmodconfig).

Input is a finished `convert` OUT (report.json, all.patch) and the tree it
was made from, which is only read (check.worktree makes the converted
copy). Each architecture has two build folders, `<arch>-pristine` (O= of
KDIR) and `<arch>-converted` (O= of the copy), both allmodconfig; kbuild's
own dependency tracking makes a second run recompile only what changed.

The objects are every converted .c and every .c that includes a converted
file (directly, or through local headers for a driver-private header),
built in one `make -k` per tree. "Not built" is decided from the
configuration, not from the compiler (`make dir/x.o` compiles x.c even
when no CONFIG enables it): a file counts as built on an arch only when
ctext.kbuild.Enablement says that arch's .config builds it. A file no
Makefile names (a .c #included by another .c) is built through its
includers. Files not built on x86_64 move on to the next architecture.

When the convert left no user and wrote the core removal (report.json
"core", OUT/tasklet-free.patch), the converted tree is the whole series:
all.patch and then the core removal, so every converted file builds
against a kernel without tasklets, and the core's own .c files
(kernel/softirq.c, ...) are built too (report.json "core" "build").
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ..ctext.includes import includers
from ..ctext.kbuild import Enablement, read_config
from ..errors import InputError, OutError
from ..kdir import kernel_version
from ..out import files as outfiles, place
from ..out.builds import ERROR, Build
from ..out.staging import changed, write_file
from . import make, reached, worktree
from .arches import ARCHES, DEFAULT_ARCHES, arch_for, candidates, make_vars, order
from ..series import write as series_write

log = logging.getLogger("detasklet")


@dataclass
class Job:
    kdir: Path
    out: Path
    build: Path
    arches: list[str]
    jobs: int
    cc: str | None
    files: list[str] | None = None
    pristine: str = "failed"     # "all": compile every object pristine too
    strict: bool = False         # every file must build converted somewhere


@dataclass
class ObjResult:
    arch: str
    pristine: str
    converted: str
    log: str = ""


@dataclass
class Run:
    objects: dict[str, ObjResult] = field(default_factory=dict)   # x.c -> result
    not_built: dict[str, list[str]] = field(default_factory=dict)   # x.c -> arches tried
    no_rule: set[str] = field(default_factory=set)   # x.c named by no Makefile
    skipped_arches: dict[str, str] = field(default_factory=dict)   # arch -> why
    reach: reached.Reach = field(default_factory=reached.Reach)   # the changed lines compiled


def inputs(kdir_arg: str, out_arg: str, build_arg: str, arches_arg: list[str]
           ) -> tuple[Path, Path, Path, list[str]]:
    """KDIR, OUT (with its report.json), the build folders and the arches of
    compile-test and coverage, checked before anything is built."""
    kdir = Path(kdir_arg).resolve()
    kernel_version(kdir)
    out = place.existing(kdir, out_arg)
    outfiles.load_report(out)
    build = place.resolve(build_arg, kdir, "build folder") if build_arg \
        else out.parent / "build"
    place.check_apart(kdir, out, build=build)
    arches = [w for x in arches_arg for w in x.replace(",", " ").split()] or list(DEFAULT_ARCHES)
    for arch in arches:
        if arch not in ARCHES:
            raise InputError(f"unknown arch {arch!r}: choose from {' '.join(ARCHES)}")
    return kdir, out, build, arches


def is_public_header(path: str) -> bool:
    return path.startswith("include/") or re.match(r"arch/[^/]+/include/", path) is not None


def objects_for(converted: Iterable[str], rev: dict[str, set[str]]) -> dict[str, set[str]]:
    """converted file -> the .c files whose compilation checks it.

    A .c checks itself and any converted file it includes. A driver-private
    header reaches through other local headers ("a.h" includes "b.h"); a
    public header (include/...) only its direct includers, since the headers
    that include it reach most of the tree."""
    res: dict[str, set[str]] = {}
    for f in converted:
        objs: set[str] = {f} if f.endswith(".c") else set()
        seen = {f}
        todo = [f]
        while todo:
            h = todo.pop()
            for inc in rev.get(h, ()):
                if inc in seen:
                    continue
                seen.add(inc)
                if inc.endswith(".c"):
                    objs.add(inc)
                elif not is_public_header(inc) and not is_public_header(f):
                    todo.append(inc)
        res[f] = objs
    return res


def _converted(job: Job) -> list[str]:
    report = outfiles.load_report(job.out)
    converted = sorted(outfiles.converted(report) + outfiles.prep_files(report))
    core = outfiles.core_sources(report)
    if job.files:
        unknown = [f for f in job.files if f not in converted]
        if unknown:
            raise InputError(f"{unknown[0]} is not a converted file of "
                             f"{job.out / 'report.json'}")
        converted = sorted(job.files)
    missing = set(converted) - set(worktree.patched_files(outfiles.load_patch(job.out)))
    if missing:
        raise InputError(f"{sorted(missing)[0]} is converted in report.json but not in "
                         "all.patch: run make convert again")
    return sorted(set(converted) | set(core))


def series_patch(job: Job) -> Path:
    """The patch of the converted tree: all.patch, followed by the core
    removal when the convert wrote one (into the build folder)."""
    report = outfiles.load_report(job.out)
    core = report.get("core", {}).get("patch")
    if not core:
        return job.out / "all.patch"
    whole = job.build / "series.patch"
    job.build.mkdir(parents=True, exist_ok=True)
    data = (job.out / "all.patch").read_bytes() + (job.out / core).read_bytes()
    if not whole.is_file() or whole.read_bytes() != data:
        whole.write_bytes(data)
    return whole


def tree_id(patch: Path) -> str:
    """What identifies the converted tree a build record was made from:
    the sha256 of its patch (series_patch()), with KDIR fixed by OUT."""
    return hashlib.sha256(patch.read_bytes()).hexdigest()


def earlier(report: dict, tree: str, now: Iterable[str]) -> dict[str, dict]:
    """The build records of report.json that a run of some of the files
    (--files) keeps: those of the files it does not build, when they were
    made from the same converted tree (report.json "build_tree"). A whole
    compile-test can so be run in parts; a record of another patch is
    dropped, since its file may have changed since."""
    if report.get("build_tree") != tree:
        return {}
    recs = {f["path"]: f["build"] for f in report["files"] if f.get("build")}
    recs.update({p: b for pr in report.get("prep", []) for p, b in pr.get("build", {}).items()})
    recs.update(report.get("core", {}).get("build", {}))
    skip = set(now)
    return {p: b for p, b in recs.items() if p not in skip}


def _enabled(run: Run, en: Enablement, name: str, cand: list[str],
             tried: dict[str, list[str]], pending: set[str]) -> list[str]:
    """The objects of cand that arch name's allmodconfig builds; those no
    Makefile names leave pending."""
    built = []
    for o in cand:
        tried[o].append(name)
        v = en.listed(o[:-2] + ".o")
        if v is True:
            built.append(o)
        elif v is None:
            run.no_rule.add(o)
            pending.discard(o)
    return built


def run(job: Job) -> tuple[Run, dict[str, set[str]]]:
    converted = _converted(job)
    log.info(f"finding the .c files that include the {len(converted)} converted files ...")
    by_file = objects_for(converted, includers(job.kdir))
    # A .c that is only #included by another .c has no object of its own:
    # it is checked through its includers (they are in by_file already).
    objs = sorted({o for s in by_file.values() for o in s})
    src = job.build / "src-converted"
    worktree.prepare(job.kdir, series_patch(job), src)
    kmtime = make.kconfig_newest(job.kdir)
    res = Run(reach=reached.start(job.kdir, src, converted))
    pending = set(objs)
    tried: dict[str, list[str]] = {o: [] for o in objs}
    for name in order(job.arches):
        arch = ARCHES[name]
        cand = candidates(pending, name)
        if not cand:
            continue
        if not shutil.which(arch.compiler):
            res.skipped_arches[name] = f"{arch.compiler} not found (apt-get install {arch.package})"
            log.info(f"{name}: skipped, {res.skipped_arches[name]}; {len(cand)} files not tried")
            continue
        mvars = make_vars(arch, job.cc)
        pristine, conv = job.build / f"{name}-pristine", job.build / f"{name}-converted"
        make.configure(job.kdir, pristine, mvars, job.jobs, kmtime, prepare=False,
                       allconfig=arch.allconfig)
        en = Enablement(job.kdir, read_config(pristine), arch.karch)
        built = _enabled(res, en, name, cand, tried, pending)
        nrule = len([o for o in cand if o in res.no_rule])
        log.info(f"{name}: {len(built)} of {len(cand)} files enabled by allmodconfig"
                 + (f" ({nrule} named by no Makefile)" if nrule else ""))
        if not built:
            continue
        dot_o = [o[:-2] + ".o" for o in built]
        make.configure(src, conv, mvars, job.jobs, kmtime, allconfig=arch.allconfig)
        cres = make.compile_objects(src, conv, mvars, dot_o, job.jobs, f"{name} converted")
        reached.after_build(res.reach, src, conv, mvars, job.jobs, f"{name} preprocessed",
                            [o for o in built if cres[o[:-2] + ".o"][0] == "ok"], by_file)
        # The pristine build decides whether a converted failure is the
        # conversion's: with --pristine failed only those are compiled there.
        again = dot_o if job.pristine == "all" else [o for o in dot_o if cres[o][0] != "ok"]
        if again:
            make.configure(job.kdir, pristine, mvars, job.jobs, kmtime,
                           allconfig=arch.allconfig)
        pres = make.compile_objects(job.kdir, pristine, mvars, again, job.jobs,
                                    f"{name} pristine")
        for o in built:
            p, plog = pres.get(o[:-2] + ".o", ("skipped", ""))
            c, clog = cres[o[:-2] + ".o"]
            if o in res.objects and not (p == "ok" or c == "ok"):
                continue        # an earlier arch failed the same way: keep it
            res.objects[o] = ObjResult(name, p, c, clog or plog)
            # an object that built without the changed lines of its files
            # goes on to the next arch, whose config may have them
            if (p == "ok" or c == "ok") and not reached.unseen(res.reach, o, by_file):
                pending.discard(o)
            if p == "ok" and c == "error":
                log.warning(f"REGRESSION {o} ({name}): {clog.splitlines()[0] if clog else ''}")
        nok = sum(cres[o][0] == "ok" for o in dot_o)
        log.info(f"{name}: {nok} of {len(dot_o)} objects built converted"
                 + (f", {len(dot_o) - nok} failed ({len(again)} compiled pristine)"
                    if nok < len(dot_o) else ""))
    for o in objs:
        if o not in res.objects:
            res.not_built[o] = tried[o]
    return res, by_file


def _why_not_built(objs: set[str], res: Run) -> tuple[list[str], str]:
    tried = sorted({a for o in objs for a in res.not_built.get(o, [])})
    if not objs:
        return tried, "no .c file includes it"
    if objs <= res.no_rule:
        return tried, "no Makefile names it, and no other .c includes it"
    if tried:
        return tried, "not enabled by allmodconfig on " + ", ".join(tried)
    need = sorted({arch_for(o) or "?" for o in objs})
    skipped = [res.skipped_arches[a] for a in need if a in res.skipped_arches]
    return tried, (f"only {'/'.join(need)} builds it: "
                   + (skipped[0] if skipped else "not an arch of this run"))


def _worst(vals: list[str]) -> str:
    return "error" if "error" in vals else "ok" if all(v == "ok" for v in vals) else "skipped"


def file_builds(by_file: dict[str, set[str]], res: Run) -> dict[str, dict]:
    """The per-file "build" record of report.json."""
    out: dict[str, dict[str, object]] = {}
    for f, objs in sorted(by_file.items()):
        rs = [(o, res.objects[o]) for o in sorted(objs) if o in res.objects]
        if not rs:
            tried, why = _why_not_built(objs, res)
            out[f] = {"arch": "+".join(tried) or "none", "config": "allmodconfig",
                      "pristine": "not-built", "converted": "not-built", "log": why}
            continue
        regress = [(o, r) for o, r in rs if r.pristine == "ok" and r.converted == "error"]
        bad = regress or [(o, r) for o, r in rs if r.converted == "error"]
        rec: dict[str, object] = {"arch": "+".join(sorted({r.arch for _, r in rs}, key=DEFAULT_ARCHES.index)),
               "config": "allmodconfig",
               "pristine": _worst([r.pristine for _, r in rs]),
               "converted": _worst([r.converted for _, r in rs]),
               "log": (f"{bad[0][0]}: {bad[0][1].log}" if bad and bad[0][0] != f
                       else bad[0][1].log if bad else "")}
        if rec["pristine"] == "skipped":
            # --pristine failed: the converted objects built, so the pristine
            # ones were not compiled. The schema has no "skipped"; say so.
            rec["pristine"] = "not-built"
            rec["pristine_compiled"] = False
            rec["log"] = rec["log"] or ("pristine not compiled: the converted objects "
                                        "built (PRISTINE=all compiles it too)")
        if f.endswith(".h") or len(rs) > 1:
            rec["objects"] = len(rs)
        lines = reached.record(res.reach, f)
        if lines and rec["converted"] == "ok":
            rec["changed_lines"] = lines
            if not lines["compiled"]:
                rec["log"] = (f"its objects build, but none of its {lines['of']} changed lines "
                              "is compiled: they sit under preprocessor conditions that "
                              f"allmodconfig leaves off on {str(rec['arch']).replace('+', ', ')}")
        if regress:
            rec["regression"] = True
        out[f] = rec
    return out


def regressions(builds: dict[str, dict]) -> list[str]:
    return [f for f, b in builds.items() if Build.of(b).regression]


def built(b: dict) -> bool:
    """Whether a file's build record shows it compiled on some arch (Build.built)."""
    return Build.of(b).built


def md_section(builds: dict[str, dict], res: Run, arches: list[str],
               kept: int = 0) -> list[str]:
    lines = ["## Build", "",
             f"`make compile-test`, allmodconfig, arches tried: {' '.join(order(arches))}"
             + (f" (the last run; the records of {kept} files are those of earlier runs "
                "of the same patch, with --files)" if kept else "") + ".", ""]
    reg = regressions(builds)
    lines += [f"Regressions (pristine builds, converted does not): {len(reg)}.", ""]
    typed = {f: Build.of(b) for f, b in builds.items()}
    for f in reg:
        lines.append(f"- **`{f}`** ({typed[f].arch}): `{typed[f].first_error()}`")
    if reg:
        lines.append("")
    counts: dict[str, dict[str, int]] = {}
    for f, b in typed.items():
        for a in b.arch.split("+") if b.built else ["not built"]:
            c = counts.setdefault(a, {"files": 0, "ok": 0, "regression": 0, "pristine error": 0})
            c["files"] += 1
            if b.regression:
                c["regression"] += 1
            elif b.pristine == ERROR:
                c["pristine error"] += 1
            elif b.builds:
                c["ok"] += 1
    lines += ["| arch | files | builds converted | regression | error already pristine |",
              "|---|---:|---:|---:|---:|"]
    for a in sorted(counts, key=lambda a: DEFAULT_ARCHES.index(a) if a in ARCHES else 99):
        c = counts[a]
        lines.append(f"| {a} | {c['files']} | {c['ok']} | {c['regression']} | "
                     f"{c['pristine error']} |")
    n = len(builds)
    nb = sum(b.built for b in typed.values())
    lines += ["", f"{nb} of {n} converted files built on some arch ({100 * nb / max(n, 1):.1f}%)."]
    pe = [f for f, b in typed.items() if b.pristine == ERROR and not b.regression]
    if pe:
        lines += ["", "Already failing before the conversion:", ""]
        lines += [f"- `{f}` ({typed[f].arch}): `{typed[f].first_error()}`" for f in pe]
    nbl = [f for f, b in typed.items() if not b.built]
    if nbl:
        lines += ["", "Not built on any arch tried:", ""]
        lines += [f"- `{f}`: {typed[f].log}" for f in nbl]
    for a, why in res.skipped_arches.items():
        lines.append(f"- arch {a} skipped: {why}")
    part = [f for f, b in typed.items() if b.builds and 0 <= b.changed_compiled < b.changed]
    if part:
        lines += ["", "Built, but not every changed line compiled (the others sit under "
                  "preprocessor conditions allmodconfig leaves off):", ""]
        lines += [f"- `{f}`: {typed[f].changed_compiled} of {typed[f].changed} lines"
                  for f in part]
    return lines


def record(out: Path, builds: dict[str, dict], section: list[str], tree: str = "") -> None:
    """The "build" record of each file into report.json (removed from the
    files without one in builds), the tree they were built from
    ("build_tree", tree_id(); none for M=), and section into report.md."""
    data = outfiles.load_report(out)
    data.pop("build_tree", None)
    if tree:
        data["build_tree"] = tree
    for f in data["files"]:
        if f["path"] in builds:
            f["build"] = builds[f["path"]]
        else:
            f.pop("build", None)
    for pr in data.get("prep", []):
        pr["build"] = {p: builds[p] for p in pr["files"] if p in builds}
    if data.get("core"):
        data["core"]["build"] = {p: builds[p] for p in data["core"]["files"] if p in builds}
    write_file(out, "report.json", json.dumps(data, indent=1) + "\n")
    outfiles.add_section(out, section)


def main(job: Job) -> int:
    start = time.time()
    res, by_file = run(job)
    tree = tree_id(series_patch(job))
    kept = earlier(outfiles.load_report(job.out), tree, by_file) if job.files else {}
    builds = {**kept, **file_builds(by_file, res)}
    with changed(job.out) as tmp:       # the records and series/ swapped in whole
        record(tmp, builds, md_section(builds, res, job.arches, len(kept)), tree)
        # the messages of series/ say how their files built
        series_write.rebuild(job.kdir, tmp, job.jobs)
    reg = regressions(builds)
    typed = {f: Build.of(b) for f, b in builds.items()}
    nb = sum(b.built for b in typed.values())
    nerr = sum(b.pristine == ERROR and not b.regression for b in typed.values())
    print(f"compile-test: {len(builds)} converted files"
          + (f" ({len(kept)} of them as earlier runs of the same patch recorded)"
             if kept else "") +
          f", {len(res.objects)} objects on "
          f"{len({r.arch for r in res.objects.values()})} arches in {time.time() - start:.0f} s: "
          f"{nb} built ({100 * nb / max(len(builds), 1):.1f}%), {len(reg)} regressions, "
          f"{nerr} already failing pristine, {len(builds) - nb} not built"
          f" ({sum(b.compiled_out for b in typed.values())} of them with objects whose "
          "changed lines are compiled out); "
          f"report: {job.out / 'report.md'}")
    for f in reg:
        print(f"REGRESSION {f} ({typed[f].arch}):\n  " +
              "\n  ".join(typed[f].log.splitlines()[:make.LOG_LINES]))
    if not job.strict:
        return 1 if reg else 0
    bad = [f for f, b in typed.items() if not b.builds]
    for f in bad:
        if f not in reg:
            print(f"NOT OK {f} ({typed[f].arch}): converted {typed[f].converted}, "
                  f"pristine {typed[f].pristine}: {typed[f].first_error()}")
    print(f"compile-test: {len(builds) - len(bad)} passed, {len(bad)} failed")
    return 1 if bad else 0
