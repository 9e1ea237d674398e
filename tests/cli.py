#!/usr/bin/env python3
"""Bad input gets one clear line on stderr, exit code 2, and nothing written.

Closing line: 'N passed, N failed'.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(args: list[str], cwd: Path, path: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "scripts")}
    if path is not None:
        env["PATH"] = path
    return subprocess.run([sys.executable, "-m", "detasklet", *args], cwd=cwd,
                          capture_output=True, text=True, env=env, timeout=120)


def fake_tree(top: Path, bh: bool) -> Path:
    k = top / "linux tree"            # a space in the path on purpose
    (k / "include/linux").mkdir(parents=True)
    (k / "drivers/foo").mkdir(parents=True)
    (k / "Makefile").write_text("VERSION = 6\nPATCHLEVEL = 8\nSUBLEVEL = 0\n")
    wq = "#define WQ_BH 1\nextern struct workqueue_struct *system_bh_wq;\n" \
         "#define from_work(a, b, c) 0\nbool disable_work_sync(void);\n" \
         "bool enable_and_queue_work(void);\n" if bh else "/* 6.8 */\n"
    (k / "include/linux/workqueue.h").write_text(wq)
    (k / "drivers/foo/foo.c").write_text(
        "struct foo { struct tasklet_struct t; };\n"
        "static void f(struct foo *p) { tasklet_schedule(&p->t); }\n")
    return k


def snapshot(d: Path) -> dict[str, tuple[int, float]]:
    return {str(p): (p.stat().st_size, p.stat().st_mtime) for p in d.rglob("*")}


def expect_error(name: str, args: list[str], cwd: Path, words: str,
                 tree: Path | None = None) -> str:
    before = snapshot(tree) if tree else None
    p = run(args, cwd, str(cwd / "empty-bin") if name == "spatch-missing" else None)
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
    passed = failed = 0
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
            print(f"{'FAIL' if err else 'ok  '} {name}{': ' + err if err else ''}")
            failed += bool(err)
            passed += not err
        # A relative KDIR with a space converts, and OUT holds the patch.
        p = run(["convert", "new/linux tree", "-o", "out dir", "-q"], t)
        ok = p.returncode == 0 and "queue_work(system_bh_wq, &p->t)" in \
            (t / "out dir/all.patch").read_text() if (t / "out dir/all.patch").exists() else False
        print(f"{'ok  ' if ok else 'FAIL'} relative-kdir-with-space"
              f"{'' if ok else ': ' + p.stderr[-300:]}")
        passed += ok
        failed += not ok
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
            print(f"{'FAIL' if err else 'ok  '} {name}{': ' + err if err else ''}")
            failed += bool(err)
            passed += not err
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
