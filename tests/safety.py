#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The tool never touches what it did not write, and every bad input is one
line before any work.

Each case runs the command line on a small fake tree in a scratch folder,
with files around OUT that the tool did not write, and checks: the exit
code, one line on stderr and no traceback, every file outside OUT (and the
previous OUT after a failed run) byte for byte as it was, KDIR unchanged.
Cases that need root (a bind mount, a small tmpfs, running as another
user) are reported as skipped when the runner is not root, never as
passed. Closing line: 'N passed, N failed' (and 'N skipped' if any).
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable

from fixtures import (ENV as _ENV, FOO_C, ROOT, Skip, detasklet, kernel, one_line_error,
                      run_cases)

ENV = {k: v for k, v in _ENV.items() if k not in ("DETASKLET_DATE", "SOURCE_DATE_EPOCH")}
ENV["DETASKLET_FROM"] = "T <t@example.org>"
ROOT_USER = os.geteuid() == 0

def fake_tree(k: Path) -> Path:
    (k / "scripts").mkdir(parents=True, exist_ok=True)
    return kernel(k, {"drivers/foo/foo.c": FOO_C, "drivers/bar/bar.c": FOO_C.replace("foo", "bar"),
                      "MAINTAINERS": "FOO DRIVER\nM:\tF <f@example.org>\nF:\tdrivers/foo/\n"})


def tree_state(d: Path) -> dict[str, bytes | str]:
    """Every file under d (links by target), for an exact before/after."""
    out: dict[str, bytes | str] = {}
    if not d.exists():
        return out
    for p in sorted(d.rglob("*")):
        rel = str(p.relative_to(d))
        if p.is_symlink():
            out[rel] = "-> " + os.readlink(p)
        elif p.is_file():
            out[rel] = p.read_bytes()
        elif p.is_dir():
            out[rel] = "dir"
    return out


def run(args: list[str], cwd: Path, env: dict[str, str] | None = None,
        user: str | None = None) -> subprocess.CompletedProcess[str]:
    prefix = ["setpriv", "--reuid", user, "--regid", user, "--clear-groups"] if user else None
    return detasklet(args, cwd, {**ENV, **(env or {})}, prefix)


class World:
    """A scratch folder: KDIR at w/work/linux, a user file beside it, a
    previous OUT at w/work/out made by a first run."""

    def __init__(self, top: Path) -> None:
        self.top = top
        self.work = top / "work"
        self.kdir = fake_tree(self.work / "linux")
        (self.work / "notes.txt").write_text("my notes\n")
        self.out = self.work / "out"

    def convert(self, *extra: str, out: str | None = None, cwd: Path | None = None,
                env: dict[str, str] | None = None,
                user: str | None = None) -> subprocess.CompletedProcess[str]:
        o = str(self.out) if out is None else out
        return run(["convert", str(self.kdir), *extra, "-o", o, "-q"], cwd or self.work,
                   env, user)

    def first(self) -> None:
        p = self.convert()
        if p.returncode or not (self.out / "all.patch").is_file():
            raise RuntimeError(f"the first run failed: {p.stderr[-300:]}")

    def state(self) -> dict[str, bytes | str]:
        return tree_state(self.top)


def refused(w: World, p: subprocess.CompletedProcess[str], words: str,
            before: dict[str, bytes | str]) -> str:
    err = one_line_error(p, words)
    if not err and w.state() != before:
        changed = sorted(set(before) ^ set(w.state()) |
                         {k for k in before if w.state().get(k) != before[k]})
        err = f"files changed: {changed[:4]}"
    return err


# ---- OUT that would hold or be what the tool did not write ------------------

def case_out_holds_kdir(w: World) -> str:
    before = w.state()
    return refused(w, w.convert(out=str(w.work), cwd=w.top), "holds KDIR", before)


def case_out_existing_folder_of_the_user(w: World) -> str:
    mine = w.top / "patches"
    mine.mkdir()
    (mine / "0001-mine.patch").write_text("mine\n")
    before = w.state()
    return refused(w, w.convert(out=str(mine)), "not made by detasklet", before)


def case_out_dot(w: World) -> str:
    before = w.state()
    return refused(w, w.convert(out=".", cwd=w.work), "working folder", before)


def case_out_empty(w: World) -> str:
    before = w.state()
    return refused(w, w.convert(out=""), "OUT is empty", before)


def case_out_home(w: World) -> str:
    home = w.top / "home"
    home.mkdir()
    (home / ".bashrc").write_text("x\n")
    before = w.state()
    return refused(w, w.convert(out="~", env={"HOME": str(home)}), "home folder", before)


def case_out_root(w: World) -> str:
    before = w.state()
    return refused(w, w.convert(out="/"), "root folder", before)


def case_out_holds_project(w: World) -> str:
    """OUT is the folder the project is in: refused. Where that folder also
    holds this test's KDIR (a checkout in /tmp), the KDIR check speaks first,
    which is as right."""
    before = w.state()
    words = "holds KDIR" if ROOT.parent in w.kdir.resolve().parents else \
        "holds the detasklet project"
    return refused(w, w.convert(out=str(ROOT.parent)), words, before)


def case_out_is_a_file(w: World) -> str:
    f = w.work / "result"
    f.write_text("not a folder\n")
    before = w.state()
    return refused(w, w.convert(out=str(f)), "not a folder", before)


def case_out_is_a_symlink(w: World) -> str:
    (w.work / "link").symlink_to(w.work / "elsewhere")
    before = w.state()
    return refused(w, w.convert(out=str(w.work / "link")), "symbolic link", before)


def case_out_inside_kdir_by_bind_mount(w: World) -> str:
    if not ROOT_USER:
        raise Skip("needs root for mount --bind")
    view = w.top / "view"
    view.mkdir()
    if subprocess.run(["mount", "--bind", str(w.kdir / "drivers"), str(view)]).returncode:
        raise Skip("mount --bind not permitted here")
    try:
        before = w.state()
        p = w.convert(out=str(view / "out"))
        err = one_line_error(p, "inside KDIR")
        if not err and (w.kdir / "drivers/out").exists():
            err = "OUT was made inside KDIR"
        return err or ("" if w.state() == before else "files changed")
    finally:
        subprocess.run(["umount", str(view)])


def case_marked_out_with_a_file_of_the_user(w: World) -> str:
    w.first()
    (w.out / "my-review.txt").write_text("my review\n")
    before = w.state()
    return refused(w, w.convert(), "did not write", before)


def case_marked_out_is_replaced(w: World) -> str:
    w.first()
    (w.out / "all.patch").write_text("stale\n")
    p = w.convert()
    if p.returncode:
        return f"exit {p.returncode}: {p.stderr[-200:]}"
    if "queue_work(system_bh_wq" not in (w.out / "all.patch").read_text():
        return "OUT was not replaced"
    left = [n for n in os.listdir(w.work) if n.startswith("out.")]
    return f"scratch left beside OUT: {left}" if left else ""


def case_convert_keeps_the_bench_result(w: World) -> str:
    """make bench's OUT/bench/ (quoted by the cover letters) outlives a
    convert that replaces OUT, byte for byte; and an OUT that make bench
    made (its marker and bench/ only) is one convert may write into."""
    w.first()
    (w.out / "bench").mkdir()
    (w.out / "bench/bench.json").write_text('{"runs": {}}\n')
    (w.out / "bench/latency.png").write_bytes(b"\x89PNG")
    before = tree_state(w.out / "bench")
    p = w.convert()
    if p.returncode:
        return f"exit {p.returncode}: {p.stderr[-300:]}"
    if tree_state(w.out / "bench") != before:
        return "bench/ was not kept"
    fresh = w.work / "benched"
    (fresh / "bench").mkdir(parents=True)
    (fresh / ".detasklet").write_text('{"tool": "detasklet", "kernel": "6.12.0"}\n')
    (fresh / "bench/bench.json").write_text('{"runs": {}}\n')
    p = w.convert(out=str(fresh))
    if p.returncode:
        return f"an OUT of make bench refused: {p.stderr[-300:]}"
    if not (fresh / "all.patch").is_file() or not (fresh / "bench/bench.json").is_file():
        return "the OUT of make bench was not written or lost bench/"
    return ""


def case_scratch_names_of_the_user_kept(w: World) -> str:
    """Regular files and folders named like the scratch folders of an older
    version, without the marker, are not the tool's: kept."""
    w.first()
    (w.work / "out.incomplete").write_text("mine\n")
    (w.work / "out.old").mkdir()
    (w.work / "out.old/keep.txt").write_text("keep\n")
    (w.work / "out.123.incomplete").mkdir()
    (w.work / "out.123.incomplete/keep.txt").write_text("keep\n")
    p = w.convert()
    if p.returncode:
        return f"exit {p.returncode}: {p.stderr[-300:]}"
    for f in ("out.incomplete", "out.old/keep.txt", "out.123.incomplete/keep.txt"):
        if not (w.work / f).exists():
            return f"{f} was removed"
    return ""


def case_second_run_while_one_holds_the_lock(w: World) -> str:
    w.first()
    before = w.state()
    lock = w.work / ".out.lock"
    fd = os.open(lock, os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        p = w.convert()
    finally:
        os.close(fd)
    return refused(w, p, "another detasklet run", before)


# ---- bad input, refused before any work, the previous OUT kept ----------------

def _bad_convert(w: World, args: list[str], words: str, env: dict[str, str] | None = None) -> str:
    w.first()
    before = w.state()
    return refused(w, w.convert(*args, env=env), words, before)


def case_paths_typo(w: World) -> str:
    return _bad_convert(w, ["drivers/fooo"], "does not exist")


def case_paths_glob(w: World) -> str:
    return _bad_convert(w, ["drivers/*/foo.c"], "not globs")


def case_paths_outside_kdir(w: World) -> str:
    return _bad_convert(w, ["../notes.txt"], "outside KDIR")


def case_paths_through_a_symlink_out_of_the_tree(w: World) -> str:
    ext = w.top / "elsewhere"
    ext.mkdir()
    (ext / "ext.c").write_text(FOO_C.replace("foo", "ext"))
    (w.kdir / "drivers/ext").symlink_to(ext)
    return _bad_convert(w, ["drivers/ext"], "out of KDIR")


def case_paths_name_no_source(w: World) -> str:
    (w.kdir / "drivers/empty").mkdir()
    (w.kdir / "drivers/empty/README").write_text("x\n")
    return _bad_convert(w, ["drivers/empty"], "name no .c or .h file")


def case_timeout_negative(w: World) -> str:
    return _bad_convert(w, ["--timeout", "-5"], "not a positive number")


def case_timeout_zero(w: World) -> str:
    return _bad_convert(w, ["--timeout", "0"], "not a positive number")


def case_jobs_zero(w: World) -> str:
    return _bad_convert(w, ["-j", "0"], "not a positive number")


def case_jobs_not_a_number(w: World) -> str:
    return _bad_convert(w, ["-j", "two"], "not a whole number")


def case_date_not_a_number(w: World) -> str:
    return _bad_convert(w, [], "DETASKLET_DATE", {"DETASKLET_DATE": "yesterday"})


def case_out_not_writable(w: World) -> str:
    if not ROOT_USER:
        raise Skip("needs root to run as another user")
    ro = w.top / "ro"
    ro.mkdir()
    os.chmod(w.top, 0o755)
    os.chmod(ro, 0o555)
    before = w.state()
    p = w.convert(out=str(ro / "out"), user="65534")
    return refused(w, p, "cannot write", before)


def case_disk_full(w: World) -> str:
    if not ROOT_USER:
        raise Skip("needs root for a small tmpfs")
    small = w.top / "small"
    small.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs",
                       str(small)]).returncode:
        raise Skip("mount -t tmpfs not permitted here")
    try:
        before = w.state()
        return refused(w, w.convert(out=str(small / "out")), "MiB free", before)
    finally:
        subprocess.run(["umount", str(small)])


def case_timeout_beyond_a_day(w: World) -> str:
    return _bad_convert(w, ["--timeout", "4294967296"], "more than 86400")


def case_jobs_named_as_make_names_them(w: World) -> str:
    return _bad_convert(w, ["-j", "0"], "J=0 is not a positive number", {"DETASKLET_MAKE": "1"})


def case_jobs_capped_at_files_and_cpus(w: World) -> str:
    """-j 64 on 2 files: at most 2 workers (the progress line says how many)."""
    p = run(["convert", str(w.kdir), "-o", str(w.out), "-j", "64", "--no-cache"], w.work)
    if p.returncode:
        return f"exit {p.returncode}: {p.stderr[-300:]}"
    return "" if re.search(r"with spatch\b.*\(-j[12]\)$", p.stderr, re.M) else \
        f"not capped: {[ln for ln in p.stderr.splitlines() if 'with spatch' in ln]}"


def case_from_without_an_address(w: World) -> str:
    return _bad_convert(w, [], "is not Name <", {"DETASKLET_FROM": "nobody"})


def case_from_with_a_newline(w: World) -> str:
    return _bad_convert(w, [], "control character",
                        {"DETASKLET_FROM": "T <t@example.org>\nBcc: all@example.org"})


def case_series_from_refused(w: World) -> str:
    w.first()
    before = w.state()
    p = run(["series", str(w.kdir), "-o", str(w.out), "--from", "nobody"], w.work)
    return refused(w, p, "is not Name <", before)


def _git_tree(w: World) -> None:
    env = {**ENV, "GIT_AUTHOR_NAME": "U", "GIT_AUTHOR_EMAIL": "u@example.org",
           "GIT_COMMITTER_NAME": "U", "GIT_COMMITTER_EMAIL": "u@example.org",
           "GIT_CONFIG_GLOBAL": "/dev/null"}
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "base"]):
        subprocess.run(["git", "-C", str(w.kdir), *args], check=True, capture_output=True,
                       env=env)


def case_base_not_a_commit_of_kdir(w: World) -> str:
    _git_tree(w)
    w.first()
    before = w.state()
    p = run(["series", str(w.kdir), "-o", str(w.out), "--base", "0123456789abcdef"], w.work)
    return refused(w, p, "not a commit of KDIR's repository", before)


def case_base_without_git(w: World) -> str:
    w.first()
    before = w.state()
    p = run(["series", str(w.kdir), "-o", str(w.out), "--base", "HEAD"], w.work)
    return refused(w, p, "not a git checkout", before)


def case_base_written_as_the_full_commit(w: World) -> str:
    _git_tree(w)
    w.first()
    head = subprocess.run(["git", "-C", str(w.kdir), "rev-parse", "HEAD"], capture_output=True,
                          text=True).stdout.strip()
    p = run(["series", str(w.kdir), "-o", str(w.out), "--base", head[:10]], w.work)
    if p.returncode:
        return f"exit {p.returncode}: {p.stderr[-300:]}"
    covers = list((w.out / "series").glob("*/0000-cover-letter.patch"))
    return "" if covers and all(f"base-commit: {head}" in c.read_text() for c in covers) \
        else "base-commit: is not the full commit id"


def case_decision_that_matches_nothing_is_reported(w: World) -> str:
    """A decision of decisions/ about a file whose function it names is
    gone (the driver changed): a warning, and in report.json and report.md."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from detasklet.convert.verdicts import decisions
    d = next(d for d in decisions.load() if not d.kernels)
    (w.kdir / d.file).parent.mkdir(parents=True, exist_ok=True)
    (w.kdir / d.file).write_text(FOO_C)         # a tasklet user without that function
    p = w.convert()
    if p.returncode:
        return f"exit {p.returncode}: {p.stderr[-300:]}"
    if "warning" not in p.stderr or d.source not in p.stderr:
        return f"no warning naming {d.source}: {p.stderr[-300:]!r}"
    rep = json.loads((w.out / "report.json").read_text())
    if not any(d.source in x for x in rep.get("warnings", [])):
        return "not in report.json warnings"
    return "" if d.source in (w.out / "report.md").read_text() else "not in report.md"


def case_paths_without_a_tasklet_user_keep_out(w: World) -> str:
    (w.kdir / "drivers/plain").mkdir()
    (w.kdir / "drivers/plain/plain.c").write_text("int plain;\n")
    return _bad_convert(w, ["drivers/plain"], "no tasklet user")


def case_spatch_failing_on_every_file_keeps_out(w: World) -> str:
    """A spatch that crashes on every file: the previous OUT is kept, and
    the one line says so."""
    w.first()
    real = shutil.which("spatch")
    bin_ = w.top / "bin"
    bin_.mkdir()
    (bin_ / "spatch").write_text(f'#!/bin/sh\n[ "$1" = --version ] && exec {real} --version\n'
                                 "echo 'Fatal error: exception Stack_overflow' >&2\nexit 2\n")
    os.chmod(bin_ / "spatch", 0o755)
    before = w.state()
    p = w.convert("--no-cache", env={"PATH": f"{bin_}{os.pathsep}{os.environ['PATH']}"})
    return refused(w, p, "left as it was", before)


# ---- the folders of a run apart from KDIR and OUT ----------------------------

def case_cache_inside_kdir(w: World) -> str:
    w.first()
    before = w.state()
    p = w.convert("--cache", str(w.kdir / "cache"))
    return refused(w, p, "inside KDIR", before)


def case_cache_inside_kdir_by_symlink(w: World) -> str:
    w.first()
    (w.work / "c").symlink_to(w.kdir / "drivers")
    before = w.state()
    p = w.convert("--cache", str(w.work / "c" / "results"))
    return refused(w, p, "inside KDIR", before)


def case_cache_empty(w: World) -> str:
    return _bad_convert(w, ["--cache", " "], "cache folder (CACHE=, --cache) is empty")


def case_cache_inside_out(w: World) -> str:
    w.first()
    before = w.state()
    p = w.convert("--cache", str(w.out / "cache"))
    return refused(w, p, "inside OUT", before)


def case_series_cache_inside_kdir(w: World) -> str:
    w.first()
    before = w.state()
    p = run(["series", str(w.kdir), "-o", str(w.out), "--cache", str(w.kdir / "c")], w.work)
    return refused(w, p, "inside KDIR", before)


def case_build_inside_out(w: World) -> str:
    w.first()
    before = w.state()
    p = run(["compile-test", str(w.kdir), "-o", str(w.out), "--build-dir", str(w.out / "b"),
             "--check"], w.top)
    return refused(w, p, "inside OUT", before)


def case_compile_test_check_needs_all_patch(w: World) -> str:
    w.first()
    (w.out / "all.patch").unlink()
    before = w.state()
    p = run(["compile-test", str(w.kdir), "-o", str(w.out), "--check"], w.work)
    return refused(w, p, "has no all.patch", before)


def case_out_is_an_empty_mount_point(w: World) -> str:
    if not ROOT_USER:
        raise Skip("needs root for a tmpfs")
    mnt = w.work / "mnt"
    mnt.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(mnt)]).returncode:
        raise Skip("mount -t tmpfs not permitted here")
    try:
        before = w.state()
        return refused(w, w.convert(out=str(mnt)), "mount point", before)
    finally:
        subprocess.run(["umount", str(mnt)])


def case_out_of_an_older_version(w: World) -> str:
    """An OUT from before the marker (only the tool's entries and its
    report.json): series says what to do; convert replaces it."""
    w.first()
    (w.out / ".detasklet").unlink()
    before = w.state()
    err = refused(w, run(["series", str(w.kdir), "-o", str(w.out)], w.work),
                  "older detasklet", before)
    if err:
        return err
    p = w.convert()
    if p.returncode:
        return f"convert: exit {p.returncode}: {p.stderr[-300:]}"
    return "" if (w.out / ".detasklet").is_file() else "not replaced"


# ---- what the scan cannot read is reported, not skipped ----------------------

def case_unreadable_file_reported(w: World) -> str:
    if not ROOT_USER:
        raise Skip("needs root to run as another user")
    for p in [w.top, *w.top.rglob("*")]:
        if p.is_dir():
            os.chmod(p, 0o777)
    os.chmod(w.kdir / "drivers/bar/bar.c", 0o000)
    p = w.convert(user="65534")
    if p.returncode:
        return f"exit {p.returncode}: {p.stderr[-300:]}"
    rep = json.loads((w.out / "report.json").read_text())
    hit = [u for u in rep.get("unscanned", []) if u["path"] == "drivers/bar/bar.c"]
    if not hit or "cannot be read" not in hit[0]["reason"]:
        return f"drivers/bar/bar.c not reported: {rep.get('unscanned')}"
    return "" if "bar.c" in (w.out / "report.md").read_text() else "not in report.md"


def case_symlinks_out_of_tree_reported(w: World) -> str:
    (w.top / "outside.c").write_text(FOO_C.replace("foo", "ext"))
    (w.kdir / "drivers/foo/ext.c").symlink_to(w.top / "outside.c")
    (w.kdir / "drivers/foo/gone.c").symlink_to(w.top / "nowhere.c")
    p = w.convert()
    if p.returncode:
        return f"exit {p.returncode}: {p.stderr[-300:]}"
    rep = json.loads((w.out / "report.json").read_text())
    why = {u["path"]: u["reason"] for u in rep.get("unscanned", [])}
    if "out of the tree" not in why.get("drivers/foo/ext.c", ""):
        return f"ext.c not reported: {why}"
    if "dangling" not in why.get("drivers/foo/gone.c", ""):
        return f"gone.c not reported: {why}"
    if "ext.c" in (w.out / "all.patch").read_text():
        return "a link out of the tree was converted"
    return ""


# ---- series, send-check, tasklet-free on a damaged OUT -----------------------

def _damaged(w: World, name: str, change: Callable[[Path], None], words: str,
             cmd: str = "series") -> str:
    w.first()
    change(w.out)
    before = w.state()
    p = run([cmd, str(w.kdir), "-o", str(w.out)], w.work)
    return refused(w, p, words, before)


def case_series_report_not_json(w: World) -> str:
    return _damaged(w, "report.json", lambda o: (o / "report.json").write_text("{oops"),
                    "not JSON")


def case_series_report_wrong_shape(w: World) -> str:
    return _damaged(w, "report.json", lambda o: (o / "report.json").write_text('{"files": 3}'),
                    "not a detasklet report")


def case_series_groups_wrong_shape(w: World) -> str:
    return _damaged(w, "groups.json", lambda o: (o / "groups.json").write_text('{"groups": [1]}'),
                    "groups")


def case_series_patch_missing_a_file(w: World) -> str:
    def drop(o: Path) -> None:
        text = (o / "all.patch").read_text()
        cut = text.index("diff --git a/drivers/foo")
        (o / "all.patch").write_text(text[:cut])
    return _damaged(w, "all.patch", drop, "lacks drivers/foo/foo.c")


def case_series_patch_cut_in_a_hunk(w: World) -> str:
    def cut(o: Path) -> None:
        text = (o / "all.patch").read_text()
        (o / "all.patch").write_text(text[:len(text) - 40])
    return _damaged(w, "all.patch", cut, "damaged")


def case_send_check_report_not_json(w: World) -> str:
    return _damaged(w, "report.json", lambda o: (o / "report.json").write_text("["),
                    "not JSON", "send-check")


def case_series_on_a_folder_not_made_by_the_tool(w: World) -> str:
    mine = w.top / "patches"
    mine.mkdir()
    (mine / "all.patch").write_text("mine\n")
    before = w.state()
    p = run(["series", str(w.kdir), "-o", str(mine)], w.work)
    return refused(w, p, "not made by detasklet", before)


def case_tasklet_free_out_is_a_file(w: World) -> str:
    f = w.work / "tf"
    f.write_text("x\n")
    before = w.state()
    p = run(["tasklet-free", str(w.kdir), "-o", str(f)], w.work)
    return refused(w, p, "not a folder", before)


def case_send_check_on_the_other_tree(w: World) -> str:
    """An OUT made from one kernel refuses send-check (and series) against
    another: its patches are not that tree's."""
    w.first()
    other = w.top / "other"
    shutil.copytree(w.kdir, other)
    (other / "Makefile").write_text("VERSION = 7\nPATCHLEVEL = 3\nSUBLEVEL = 4\n")
    before = w.state()
    p = run(["send-check", str(other), "-o", str(w.out)], w.work)
    err = refused(w, p, "was made from Linux 6.12.0", before)
    if err:
        return err
    return refused(w, run(["series", str(other), "-o", str(w.out)], w.work),
                   "is Linux 7.3.4", before)


def _user_files_in_series(w: World, cmd: str) -> str:
    """Files a user put in OUT/series/ (a note beside the folders, an
    extra patch in one) are refused up front, named, never deleted."""
    w.first()
    folder = next(p for p in (w.out / "series").iterdir() if p.is_dir())
    (w.out / "series/notes.txt").write_text("my notes\n")
    (folder / "0099-my-extra.patch").write_text("mine\n")
    before = w.state()
    args = [cmd, str(w.kdir), "-o", str(w.out)] + (["-q"] if cmd == "convert" else [])
    err = refused(w, run(args, w.work), "series/notes.txt", before)
    if err:
        return err
    (w.out / "series/notes.txt").unlink()
    before = w.state()
    return refused(w, run(args, w.work), f"series/{folder.name}/0099-my-extra.patch", before)


def case_series_refuses_user_files_in_series(w: World) -> str:
    return _user_files_in_series(w, "series")


def case_convert_refuses_user_files_in_series(w: World) -> str:
    return _user_files_in_series(w, "convert")


def case_series_disk_full_keeps_out(w: World) -> str:
    """make series that runs out of room (OUT on a full file system) leaves
    OUT as it was, series/ and README whole, with one line."""
    if not ROOT_USER:
        raise Skip("needs root for a small tmpfs")
    small = w.top / "small"
    small.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=80m", "tmpfs",
                       str(small)]).returncode:
        raise Skip("mount -t tmpfs not permitted here")
    try:
        out = small / "out"
        p = w.convert(out=str(out))
        if p.returncode:
            return f"first run: exit {p.returncode}: {p.stderr[-300:]}"
        try:
            with open(small / "filler", "wb") as f:     # all the room there is
                while True:
                    f.write(b"\0" * 4096)
                    f.flush()
        except OSError:
            pass
        # room for half a copy of OUT: the run fails in the middle
        size = sum(q.stat().st_size for q in out.rglob("*") if q.is_file())
        os.truncate(small / "filler", max(0, (small / "filler").stat().st_size - size // 2))
        before = w.state()
        p = run(["series", str(w.kdir), "-o", str(out), "--no-cache"], w.work)
        return refused(w, p, "left as it was", before)
    finally:
        subprocess.run(["umount", str(small)])


def case_series_killed_keeps_out(w: World) -> str:
    """make series killed (-9) as it writes its second mail leaves OUT as
    it was, series/README and all; the next run writes it and removes the
    killed run's scratch folder."""
    w.first()
    before = tree_state(w.out)
    hook = {"PYTHONPATH": f"{ROOT / 'scripts'}{os.pathsep}{ROOT / 'tests/hooks'}",
            "DETASKLET_KILL_AT": "/series/:2"}
    p = run(["series", str(w.kdir), "-o", str(w.out), "--no-cache"], w.work, hook)
    if p.returncode != -9:
        return f"exit {p.returncode}, want -9 ({p.stderr[-200:]!r})"
    if tree_state(w.out) != before:
        return "OUT changed"
    p = run(["series", str(w.kdir), "-o", str(w.out), "--no-cache"], w.work)
    if p.returncode:
        return f"rerun: exit {p.returncode}: {p.stderr[-300:]}"
    left = [n for n in os.listdir(w.work) if n.startswith("out.")]
    return f"scratch left: {left}" if left else ""


def case_series_on_a_read_only_mount(w: World) -> str:
    """OUT bind-mounted read-only on itself: one line before any work (it
    was a traceback when series/ was deleted in place)."""
    if not ROOT_USER:
        raise Skip("needs root for mount --bind")
    w.first()
    if subprocess.run(["mount", "--bind", str(w.out), str(w.out)]).returncode:
        raise Skip("mount --bind not permitted here")
    try:
        if subprocess.run(["mount", "-o", "remount,ro,bind", str(w.out)]).returncode:
            raise Skip("mount -o remount,ro not permitted here")
        before = w.state()
        p = run(["series", str(w.kdir), "-o", str(w.out), "--no-cache"], w.work)
        return refused(w, p, "mount point", before) or \
            refused(w, w.convert(), "mount point", before)
    finally:
        subprocess.run(["umount", str(w.out)])


def case_series_on_a_read_only_out(w: World) -> str:
    if not ROOT_USER:
        raise Skip("needs root to run as another user")
    w.first()
    for q in [w.top, *w.top.rglob("*")]:
        if q.is_dir():
            os.chmod(q, 0o755)
    before = w.state()
    p = run(["series", str(w.kdir), "-o", str(w.out), "--no-cache"], w.work, user="65534")
    return refused(w, p, "cannot write", before)


def case_no_get_maintainer_warns(w: World) -> str:
    """No scripts/get_maintainer.pl: a warning, and each patch says it has
    no recipients."""
    p = w.convert()
    if p.returncode:
        return f"exit {p.returncode}: {p.stderr[-300:]}"
    if "get_maintainer.pl" not in p.stderr or "warning" not in p.stderr:
        return f"no warning: {p.stderr[-300:]!r}"
    pats = [f for f in (w.out / "series").glob("*/0*.patch") if "cover-letter" not in f.name]
    if not pats or not all("No recipients:" in f.read_text() for f in pats):
        return "a patch does not say it has no recipients"
    return ""


def case_get_maintainer_conf_in_the_cache_key(w: World) -> str:
    """A .get_maintainer.conf added to KDIR (--nol: no lists) changes the
    recipients of the next run with the same cache."""
    gm = ROOT / "cache/linux-source-7.3/scripts/get_maintainer.pl"
    if not gm.is_file():
        raise Skip("needs the 7.3 reference tree's get_maintainer.pl (make references)")
    shutil.copy(gm, w.kdir / "scripts/get_maintainer.pl")
    for f in ("COPYING", "CREDITS", "Kbuild", "README"):      # what it takes for a tree
        (w.kdir / f).write_text("")
    for d in ("Documentation", "arch", "fs", "init", "ipc", "kernel", "lib"):
        (w.kdir / d).mkdir(exist_ok=True)
    (w.kdir / "MAINTAINERS").write_text("FOO DRIVER\nM:\tF <f@example.org>\n"
                                        "L:\tfoo-list@example.org\nS:\tMaintained\n"
                                        "F:\tdrivers/foo/\n")
    cache = ["--cache", str(w.top / "cache")]
    series = ["series", str(w.kdir), "-o", str(w.out), *cache]

    def foo_mail() -> str:
        return "".join(p.read_text() for p in (w.out / "series").glob("*/0*-*foo*.patch"))
    p = w.convert(*cache)
    if p.returncode or "foo-list@example.org" not in foo_mail():
        return f"the first run has no list in Cc: ({p.returncode}, {p.stderr[-200:]!r})"
    (w.kdir / ".get_maintainer.conf").write_text("--nol\n")
    p = run(series, w.work)
    if p.returncode:
        return f"exit {p.returncode}: {p.stderr[-300:]}"
    return "a cached answer ignored .get_maintainer.conf" if "foo-list@example.org" in \
        foo_mail() else ""


def case_date_from_the_tree_not_the_clock(w: World) -> str:
    """The patches' Date: is the tree's (the top Makefile's time), not the
    time of the run."""
    os.utime(w.kdir / "Makefile", (1700000000, 1700000000))
    w.first()
    pats = sorted((w.out / "series").glob("*/0001-*.patch"))
    text = pats[0].read_text() if pats else ""
    return "" if "Date: Tue, 14 Nov 2023" in text else "Date: is not the tree's"


def main() -> int:
    return run_cases(globals(), World, "detasklet-safety-")


if __name__ == "__main__":
    sys.exit(main())
