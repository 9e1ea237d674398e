"""detasklet command line: python3 -m detasklet (from scripts/)."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

from . import classify, facts, report, rewrite, scan, series, tree, verify


def log(msg: str, quiet: bool = False) -> None:
    if not quiet:
        print(msg, file=sys.stderr, flush=True)


def pipeline(kdir: Path, paths: list[str], jobs: int, timeout: int,
             quiet: bool = True) -> list[list[classify.Outcome]]:
    """scan -> facts -> rewrite -> classify; returns the outcomes by group."""
    scans = scan.scan_tree(kdir, paths)
    groups = facts.group_files(kdir, scans)
    old = {f: scan.read_text(kdir / f) for g in groups for f in g.files}
    tasklets = {s.path: s.idents for s in scans}
    todo = [(f, g.env()) for g in groups for f in g.files if f not in g.refusals]
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
    return [classify.classify_group(g, old, results, tasklets) for g in groups]


def cmd_convert(a: argparse.Namespace) -> int:
    kdir = Path(a.kdir).resolve()
    out = Path(a.out).resolve()
    version = tree.kernel_version(kdir)
    tree.check_bh_workqueues(kdir)
    tree.check_spatch()
    if out == kdir or kdir in out.parents:
        raise tree.TreeError(f"OUT {out} is inside KDIR {kdir}: the tree is never written")
    start = time.time()
    log(f"scanning {kdir} ({version}) for tasklet users...", a.quiet)
    outcomes = pipeline(kdir, a.paths, a.jobs, a.timeout, a.quiet)
    # Write into a fresh folder, then swap it in: OUT is never half-written.
    tmp = out.with_name(out.name + ".incomplete")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    nconv, npatch = series.write(tmp, outcomes)
    flat = [o for g in outcomes for o in g]
    report.write(tmp, version, flat)
    shutil.rmtree(out, ignore_errors=True)
    os.replace(tmp, out)
    counts = {s: sum(o.status == s for o in flat) for s in ("converted", "unconverted", "failed")}
    log(f"done in {time.time() - start:.0f} s: {counts['converted']} converted, "
        f"{counts['unconverted']} unconverted, {counts['failed']} failed of {len(flat)} files; "
        f"{npatch} patches", a.quiet)
    print(f"patches: {out / 'all.patch'} and {out / 'series'}/; report: {out / 'report.md'}")
    return 0


def cmd_scan(a: argparse.Namespace) -> int:
    kdir = Path(a.kdir).resolve()
    tree.kernel_version(kdir)
    for s in scan.scan_tree(kdir, a.paths):
        print(f"{s.path}\t{' '.join(s.idents)}")
    return 0


def cmd_compile_test(a: argparse.Namespace) -> int:
    kdir = Path(a.kdir).resolve()
    tree.kernel_version(kdir)
    out = Path(a.out).resolve()
    verify.load_report(out)
    build = Path(a.build_dir).resolve() if a.build_dir else out.parent / "build"
    if build == kdir or kdir in build.parents:
        raise tree.TreeError(f"build folder {build} is inside KDIR {kdir}: the tree is never written")
    arches = [w for x in a.arches for w in x.replace(",", " ").split()] or list(verify.DEFAULT_ARCHES)
    for arch in arches:
        if arch not in verify.ARCHES:
            raise tree.TreeError(f"unknown arch {arch!r}: choose from {' '.join(verify.ARCHES)}")
    return verify.main(verify.Job(kdir, out, build, arches, a.jobs, a.cc or None,
                                  a.files or None, a.quiet, a.pristine, a.strict))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="detasklet", description=(
        "Convert Linux kernel tasklet users to BH workqueues with Coccinelle. "
        "The kernel tree is only read; results go to OUT."))
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("convert", help="scan, rewrite, classify, write all.patch, "
                       "series/ and the reports into OUT")
    c.add_argument("kdir", help="kernel tree to convert (never written)")
    c.add_argument("paths", nargs="*", help="limit to these files/folders (like M=)")
    c.add_argument("-o", "--out", default="out", help="output folder (default: out)")
    c.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    c.add_argument("--timeout", type=int, default=120, help="seconds per file for spatch")
    c.add_argument("-q", "--quiet", action="store_true")
    c.set_defaults(fn=cmd_convert)
    s = sub.add_parser("scan", help="list the files that use the tasklet API")
    s.add_argument("kdir")
    s.add_argument("paths", nargs="*")
    s.set_defaults(fn=cmd_scan)
    t = sub.add_parser("compile-test", help="build every converted file (and the .c files "
                       "including a converted header) pristine and converted, allmodconfig")
    t.add_argument("kdir", help="the tree OUT was converted from (never written)")
    t.add_argument("-o", "--out", default="out", help="a convert OUT (default: out)")
    t.add_argument("--arches", nargs="*", default=[],
                   help=f"in order of preference, x86_64 first (default: {' '.join(verify.DEFAULT_ARCHES)})")
    t.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    t.add_argument("--cc", default="", help='CC for make, e.g. "ccache gcc" (cross: gcc '
                   "becomes <prefix>gcc)")
    t.add_argument("--build-dir", default="", help="build folders (default: build/ beside OUT)")
    t.add_argument("--files", nargs="*", default=[], help="only these converted files")
    t.add_argument("--pristine", choices=("failed", "all"), default="failed",
                   help="compile pristine only the objects that fail converted (default), or all")
    t.add_argument("--strict", action="store_true",
                   help="also fail when a file is not built converted on any arch")
    t.add_argument("-q", "--quiet", action="store_true")
    t.set_defaults(fn=cmd_compile_test)
    a = p.parse_args(argv)
    try:
        return a.fn(a)
    except tree.TreeError as e:
        print(f"detasklet: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("detasklet: interrupted; OUT left as it was", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
