"""detasklet command line: python3 -m detasklet (from scripts/)."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import NoReturn

from . import __version__, classify, core, decisions, facts, outdir, report, rewrite, scan, \
    sendcheck, series, sites, tree, verify
from .errors import DetaskletError, InputError, OutError, TreeError


def log(msg: str, quiet: bool = False) -> None:
    if not quiet:
        print(msg, file=sys.stderr, flush=True)


def pipeline(kdir: Path, paths: list[str], jobs: int, timeout: int, quiet: bool = True,
             problems: list[tuple[str, str]] | None = None,
             decs: list[decisions.Decision] | None = None,
             kernel: str = "") -> list[list[classify.Outcome]]:
    """scan -> facts -> site verdicts -> rewrite -> classify; returns the
    outcomes by group. Paths that could not be scanned go to problems;
    decs: the per-driver decisions (default: the project's decisions/)."""
    scans = scan.scan_tree(kdir, paths, problems)
    if paths and not scans and not scan.iter_sources(kdir, paths):
        raise InputError(f"PATHS {' '.join(paths)} name no .c or .h file of KDIR")
    groups = facts.group_files(kdir, scans)
    old = {f: scan.read_text(kdir / f) for g in groups for f in g.files}
    api = {s.path: s.idents for s in scans}
    decs = decisions.load() if decs is None else decs
    marked: dict[str, str] = {}
    for g in groups:
        codes = {f: scan.strip_comments(old[f]) for f in g.files}
        g.plan = sites.plan(codes, decisions.for_files(decs, set(g.files), kernel), g.hi_keys)
        for f, why in g.plan.refusals.items():
            g.refusals.setdefault(f, why)
        for f in g.files:
            marked[f], missed = g.plan.mark(f, old[f])
            if missed:
                g.refusals.setdefault(f, f"{missed[0].api}() at line {missed[0].line}: the "
                                         "call could not be told apart on its line")
    todo = [(f, {**g.env(), **g.plan.env()}, marked[f]) for g in groups for f in g.files
            if f not in g.refusals]
    log(f"{len(scans)} files use the tasklet API, in {len(groups)} groups; "
        f"rewriting {len(todo)} with spatch (-j{jobs})", quiet)
    done = [0]
    nconv = [0]

    def progress(r: rewrite.Result) -> None:
        done[0] += 1
        what = "rewritten" if r.new_text is not None else f"failed: {r.error}"
        if r.new_text is not None and not scan.find_uses(r.new_text):
            nconv[0] += 1
        log(f"[{done[0]}/{len(todo)}] {r.path} {what} ({nconv[0]} clean so far)", quiet)

    results = rewrite.rewrite_all(kdir, todo, jobs, timeout, progress)
    return [classify.classify_group(g, old, results, api) for g in groups]


def check_paths(kdir: Path, paths: list[str]) -> list[str]:
    """PATHS as tree-relative paths, each naming something inside KDIR."""
    rels = []
    for p in paths:
        q = Path(p) if os.path.isabs(p) else kdir / p
        rel = os.path.normpath(os.path.relpath(os.path.abspath(q), kdir))
        if rel == ".." or rel.startswith("../") or not outdir.inside(q, kdir) \
                and os.path.lexists(q):
            raise InputError(f"PATHS: {p!r} is outside KDIR {kdir}")
        if not os.path.lexists(q):
            glob = " (PATHS are not globs: name files or folders)" \
                if any(c in p for c in "*?[") else ""
            raise InputError(f"PATHS: {p!r} does not exist in KDIR {kdir}{glob}")
        rels.append(rel)
    return rels


def cmd_convert(a: argparse.Namespace) -> int:
    kdir = Path(a.kdir).resolve()
    version = tree.kernel_version(kdir)
    tree.check_bh_workqueues(kdir)
    out = outdir.resolve(a.out, kdir)
    paths = check_paths(kdir, a.paths)
    series.identity_date(kdir)          # a bad DETASKLET_DATE fails now, not at the end
    tree.check_spatch()
    outdir.check_ours(out, must_exist=False)
    outdir.check_room(out)
    start = time.time()
    with outdir.locked(out):
        stage = outdir.Staging(out, version, __version__)
        tmp = stage.begin()
        try:
            log(f"scanning {kdir} ({version}) for tasklet users...", a.quiet)
            problems: list[tuple[str, str]] = []
            outcomes = pipeline(kdir, paths, a.jobs, a.timeout, a.quiet, problems,
                                kernel=version)
            for path, why in problems:
                log(f"warning: {path}: {why}", False)
            flat = [o for g in outcomes for o in g]
            series.write(tmp, outcomes)
            report.write(tmp, version, flat, problems)
            npatch = len(series.build(kdir, tmp, series.identity(kdir), a.jobs, str(out),
                                      lambda m: log(m, a.quiet)))
        except OSError as e:
            stage.abort()
            raise OutError(f"cannot write the results ({e.strerror}{': ' + e.filename if e.filename else ''}); "
                           f"{out} is left as it was") from None
        except BaseException:
            stage.abort()
            raise
        stage.commit()
    counts = {s: sum(o.status == s for o in flat) for s in outdir.STATUSES}
    tail = f"; {len(problems)} paths not scanned (report.md)" if problems else ""
    log(f"done in {time.time() - start:.0f} s: {counts['converted']} converted, "
        f"{counts['unconverted']} unconverted, {counts['failed']} failed of {len(flat)} files; "
        f"{npatch} patches{tail}", a.quiet)
    print(f"patches: {out / 'all.patch'} and {out / 'series'}/; report: {out / 'report.md'}")
    return 0


def _out_of(a: argparse.Namespace) -> tuple[Path, Path]:
    """KDIR and an existing detasklet OUT (series, send-check)."""
    kdir = Path(a.kdir).resolve()
    tree.kernel_version(kdir)
    out = outdir.resolve(a.out, kdir)
    outdir.check_ours(out, must_exist=True)
    return kdir, out


def cmd_series(a: argparse.Namespace) -> int:
    kdir, out = _out_of(a)
    ident = series.identity(kdir, a.from_, a.base)
    with outdir.locked(out):
        patches = series.build(kdir, out, ident, a.jobs, str(out), lambda m: log(m, a.quiet))
    print(f"series: {len(patches)} patches and a cover letter in {out / 'series'}/")
    return 0


def cmd_send_check(a: argparse.Namespace) -> int:
    kdir, out = _out_of(a)
    with outdir.locked(out, shared=True):
        return sendcheck.check(kdir, out, a.jobs)


def cmd_tasklet_free(a: argparse.Namespace) -> int:
    """OUT/tasklet-free.patch: the tasklet core removed (scripts/detasklet/core.py)."""
    kdir = Path(a.kdir).resolve()
    version = tree.kernel_version(kdir)
    tree.check_bh_workqueues(kdir)
    out = outdir.resolve(a.out, kdir)
    text = core.patch(kdir)
    outdir.check_ours(out, must_exist=False)
    with outdir.locked(out):
        outdir.check_ours(out, must_exist=False)
        if not out.exists():
            try:
                out.mkdir(parents=True)
                outdir.write_marker(out, version, __version__)
            except OSError as e:
                raise OutError(f"cannot make {out}: {e.strerror}") from None
        dst = outdir.write_file(out, "tasklet-free.patch", text)
    print(f"patch: {dst} ({', '.join(core.FILES + tuple(core.SYMBOL_STRINGS))})")
    return 0


def cmd_scan(a: argparse.Namespace) -> int:
    kdir = Path(a.kdir).resolve()
    tree.kernel_version(kdir)
    for s in scan.scan_tree(kdir, a.paths):
        print(f"{s.path}\t{' '.join(s.idents)}")
    return 0


def _build_args(a: argparse.Namespace) -> tuple[Path, Path, Path, list[str]]:
    """KDIR, OUT (with its report.json), the build folders, the arches of
    compile-test and coverage, checked."""
    kdir = Path(a.kdir).resolve()
    tree.kernel_version(kdir)
    out = outdir.resolve(a.out, kdir)
    outdir.check_ours(out, must_exist=True)
    verify.load_report(out)
    build = outdir.resolve(a.build_dir, kdir, "build folder") if a.build_dir \
        else out.parent / "build"
    if outdir.inside(build, kdir):
        raise OutError(f"build folder {build} is inside KDIR {kdir}: the tree is never written")
    arches = [w for x in a.arches for w in x.replace(",", " ").split()] or list(verify.DEFAULT_ARCHES)
    for arch in arches:
        if arch not in verify.ARCHES:
            raise InputError(f"unknown arch {arch!r}: choose from {' '.join(verify.ARCHES)}")
    return kdir, out, build, arches


def cmd_coverage(a: argparse.Namespace) -> int:
    """How many files of OUT/report.json some arch's allmodconfig builds."""
    kdir, out, build, arches = _build_args(a)
    if a.check:
        return 0
    on, why = verify.coverage(kdir, out, build, arches, lambda m: print(m, file=sys.stderr))
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


def cmd_compile_test(a: argparse.Namespace) -> int:
    kdir, out, build, arches = _build_args(a)
    if a.check:
        return 0
    with outdir.locked(out):
        return verify.main(verify.Job(kdir, out, build, arches, a.jobs, a.cc or None,
                                      a.files or None, a.quiet, a.pristine, a.strict))


def positive(text: str) -> int:
    """argparse type: an integer of at least 1 (J, TIMEOUT)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{n} is not a positive number")
    return n


class Parser(argparse.ArgumentParser):
    """A usage error is one line and exit 2, as every other user error."""

    def error(self, message: str) -> "NoReturn":
        print(f"{self.prog}: error: {message} (--help explains)", file=sys.stderr)
        sys.exit(2)


def main(argv: list[str] | None = None) -> int:
    p = Parser(prog="detasklet", description=(
        "Convert Linux kernel tasklet users to BH workqueues with Coccinelle. "
        "The kernel tree is only read; results go to OUT."))
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("convert", help="scan, rewrite, classify, write all.patch, "
                       "series/ and the reports into OUT")
    c.add_argument("kdir", help="kernel tree to convert (never written)")
    c.add_argument("paths", nargs="*", help="limit to these files/folders (like M=)")
    c.add_argument("-o", "--out", default="out", help="output folder (default: out)")
    c.add_argument("-j", "--jobs", type=positive, default=os.cpu_count() or 1)
    c.add_argument("--timeout", type=positive, default=120, help="seconds per file for spatch")
    c.add_argument("-q", "--quiet", action="store_true")
    c.set_defaults(fn=cmd_convert)
    r = sub.add_parser("series", help="write OUT/series/ again from OUT/all.patch, "
                       "groups.json and report.json (no spatch)")
    r.add_argument("kdir", help="the pristine kernel tree all.patch was made from")
    r.add_argument("-o", "--out", default="out")
    r.add_argument("--from", dest="from_", help="identity for From: and Signed-off-by: "
                   "(default: DETASKLET_FROM, else git config user.name/email)")
    r.add_argument("--base", help="base commit for the cover letter (default: KDIR's HEAD "
                   "when it is a git checkout)")
    r.add_argument("-j", "--jobs", type=positive, default=os.cpu_count() or 1)
    r.add_argument("-q", "--quiet", action="store_true")
    r.set_defaults(fn=cmd_series)
    k = sub.add_parser("send-check", help="apply every patch of OUT/series/ alone (git am) "
                       "and run checkpatch --strict; exit 1 on any failure")
    k.add_argument("kdir")
    k.add_argument("-o", "--out", default="out")
    k.add_argument("-j", "--jobs", type=positive, default=os.cpu_count() or 1)
    k.set_defaults(fn=cmd_send_check)
    t = sub.add_parser("tasklet-free", help="write OUT/tasklet-free.patch: the tasklet "
                       "core removed from kernel/softirq.c, include/linux/interrupt.h and "
                       "include/trace/events/irq.h, BH workqueue execution kept")
    t.add_argument("kdir", help="kernel tree (never written)")
    t.add_argument("-o", "--out", default="out", help="output folder (default: out)")
    t.set_defaults(fn=cmd_tasklet_free)
    s = sub.add_parser("scan", help="list the files that use the tasklet API")
    s.add_argument("kdir")
    s.add_argument("paths", nargs="*")
    s.set_defaults(fn=cmd_scan)
    t = sub.add_parser("coverage", help="count the files of OUT/report.json (converted or "
                       "not) that some arch's allmodconfig builds; list the others with why")
    t.add_argument("kdir", help="the tree OUT was converted from (never written)")
    t.add_argument("-o", "--out", default="out", help="a convert OUT (default: out)")
    t.add_argument("--arches", nargs="*", default=[],
                   help=f"(default: {' '.join(verify.DEFAULT_ARCHES)})")
    t.add_argument("--build-dir", default="", help="build folders (default: build/ beside OUT)")
    t.add_argument("--check", action="store_true", help="only check the arguments and OUT")
    t.set_defaults(fn=cmd_coverage)

    t = sub.add_parser("compile-test", help="build every converted file (and the .c files "
                       "including a converted header) pristine and converted, allmodconfig")
    t.add_argument("kdir", help="the tree OUT was converted from (never written)")
    t.add_argument("-o", "--out", default="out", help="a convert OUT (default: out)")
    t.add_argument("--arches", nargs="*", default=[],
                   help=f"in order of preference, x86_64 first (default: {' '.join(verify.DEFAULT_ARCHES)})")
    t.add_argument("-j", "--jobs", type=positive, default=os.cpu_count() or 1)
    t.add_argument("--cc", default="", help='CC for make, e.g. "ccache gcc" (cross: gcc '
                   "becomes <prefix>gcc)")
    t.add_argument("--build-dir", default="", help="build folders (default: build/ beside OUT)")
    t.add_argument("--files", nargs="*", default=[], help="only these converted files")
    t.add_argument("--pristine", choices=("failed", "all"), default="failed",
                   help="compile pristine only the objects that fail converted (default), or all")
    t.add_argument("--strict", action="store_true",
                   help="also fail when a file is not built converted on any arch")
    t.add_argument("-q", "--quiet", action="store_true")
    t.add_argument("--check", action="store_true", help="only check the arguments and OUT")
    t.set_defaults(fn=cmd_compile_test)
    a = p.parse_args(argv)

    def on_term(signum: int, frame: object) -> None:
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, on_term)
    try:
        return a.fn(a)
    except DetaskletError as e:
        print(f"detasklet: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("detasklet: interrupted; OUT left as it was", file=sys.stderr)
        return 130
    except Exception as e:         # a bug of the tool: one line, the traceback in a file
        fd, name = tempfile.mkstemp(prefix="detasklet-traceback-", suffix=".log")
        with os.fdopen(fd, "w") as f:
            f.write(f"detasklet {__version__}: {' '.join(sys.argv)}\n")
            traceback.print_exc(file=f)
        print(f"detasklet: internal error: {type(e).__name__}: {str(e)[:200]} "
              f"(traceback in {name})", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
