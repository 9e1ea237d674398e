#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Bad input gets one clear line on stderr, exit code 2, and nothing written.

Closing line: 'N passed, N failed'.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from fixtures import FOO_C, ROOT, Tally, detasklet, kernel


def fake_tree(top: Path, bh: bool) -> Path:
    # a space in the path on purpose
    return kernel(top / "linux tree", {"drivers/foo/foo.c": FOO_C}, patchlevel=8, bh=bh)


def snapshot(d: Path) -> dict[str, tuple[int, float]]:
    return {str(p): (p.stat().st_size, p.stat().st_mtime) for p in d.rglob("*")}


def expect_error(name: str, args: list[str], cwd: Path, words: str,
                 tree: Path | None = None) -> str:
    before = snapshot(tree) if tree else None
    p = detasklet(args, cwd, {"PATH": str(cwd / "empty-bin")} if name == "spatch-missing" else None)
    lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
    if p.returncode != 2:
        return f"exit {p.returncode}, want 2 ({p.stderr.strip()[:200]})"
    if len(lines) != 1 or "Traceback" in p.stderr:
        return f"want one line on stderr, got: {p.stderr[:300]!r}"
    if words not in lines[0]:
        return f"message {lines[0]!r} lacks {words!r}"
    if tree and snapshot(tree) != before:
        return "the tree was written"
    return ""


def main() -> int:
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        old = fake_tree(t / "old", bh=False)
        new = fake_tree(t / "new", bh=True)
        cases = [
            ("kdir-missing", ["convert", str(t / "nope")], "does not exist", None),
            ("kdir-not-a-tree", ["convert", str(t)], "not a Linux kernel tree", None),
            ("kdir-is-a-file", ["convert", str(new / "Makefile")], "not a folder", None),
            ("kernel-without-bh-workqueues", ["convert", str(old), "-o", str(t / "o1")],
             "since Linux 6.9", old),
            ("spatch-missing", ["convert", str(new), "-o", str(t / "o2")],
             "apt-get install coccinelle", new),
            ("out-inside-kdir", ["convert", str(new), "-o", str(new / "out")],
             "inside KDIR", new),
        ]
        for name, args, words, tree in cases:
            err = expect_error(name, args, t, words, tree)
            if not err and name == "kernel-without-bh-workqueues" and (t / "o1").exists():
                err = "OUT was written"
            tally.case(name, err)
        # A relative KDIR with a space converts, and OUT holds the patch.
        p = detasklet(["convert", "new/linux tree", "-o", "out dir", "-q"], t)
        ok = p.returncode == 0 and "queue_work(system_bh_wq, &p->t)" in \
            (t / "out dir/all.patch").read_text() if (t / "out dir/all.patch").exists() else False
        tally.case("relative-kdir-with-space", "" if ok else p.stderr[-300:])
        # KVER with no reference tree: refused by make before anything is
        # installed or unpacked (make -n: nothing would run anyway).
        for kver in ("6.1", "9.9"):
            env = {k: v for k, v in os.environ.items()
                   if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "KDIR", "KVER")}
            p = subprocess.run(["make", "-n", "convert", f"KVER={kver}"], cwd=ROOT, env=env,
                               capture_output=True, text=True)
            lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
            ok = p.returncode == 2 and len(lines) == 1 and \
                f"KVER={kver} is not a reference tree" in lines[0] and not p.stdout.strip()
            tally.case(f"kver-{kver}-unknown", "" if ok else f"exit {p.returncode}: "
                       f"{p.stderr[-200:]!r} {p.stdout[-200:]!r}")
        # rerun-bench's WORK (a hard-link copy of KDIR goes there) inside KDIR
        before = snapshot(new)
        p = subprocess.run(["sh", str(ROOT / "scripts/rerun-bench.sh"), str(new),
                            str(new / "work")], capture_output=True, text=True)
        ok = p.returncode == 2 and "inside KDIR" in p.stderr and \
            len(p.stderr.strip().splitlines()) == 1 and snapshot(new) == before
        tally.case("rerun-bench-work-inside-kdir", "" if ok else
                   f"exit {p.returncode}: {p.stderr[-200:]!r}")
        # compile-test: bad input is refused before anything is built.
        (t / "empty-out").mkdir()
        ct = [
            ("compile-test-kdir-missing", ["compile-test", str(t / "nope"), "-o", str(t / "out dir")],
             "does not exist", None),
            ("compile-test-without-convert", ["compile-test", str(new), "-o", str(t / "empty-out")],
             "run make convert first", new),
            ("compile-test-unknown-arch", ["compile-test", str(new), "-o", str(t / "out dir"),
                                           "--arches", "vax"], "unknown arch", new),
            ("compile-test-file-not-converted", ["compile-test", str(new), "-o", str(t / "out dir"),
                                                 "--files", "drivers/foo/bar.c"],
             "not a converted file", new),
        ]
        for name, args, words, tree in ct:
            err = expect_error(name, args, t, words, tree)
            if not err and (t / "build").exists():
                err = "a build folder was made"
            tally.case(name, err)
    return tally.close()


if __name__ == "__main__":
    sys.exit(main())
