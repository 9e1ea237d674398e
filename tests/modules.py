#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Golden cases for make convert M=: out-of-tree modules we wrote in the
shapes of the in-tree tasklet users (tests/modules/NAME/, a Kbuild and .c
files), converted against Linux 7.3 as an external module.

expected/module-NAME.out pins, for the module: each file's status and
reason, each site's verdict (line, function, API, replacement, verdict,
analysis), the mail's Subject and To, then all.patch. Each case also
checks that the module's folder is not written and that the patch paths
are relative to the module's root. With --update, the .out files are
written again (read the diff before committing it).
Closing line: 'N passed, N failed'.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULES, EXPECTED = ROOT / "tests" / "modules", ROOT / "expected"
KDIR = Path(os.environ.get("DETASKLET_TEST_KDIR", ROOT / "cache" / "linux-source-7.3"))
TO = "Module Maintainer <maint@example.org>"
ENV = {"DETASKLET_DATE": "1700000000", "DETASKLET_FROM": "Test Author <author@example.org>",
       "PYTHONPATH": str(ROOT / "scripts")}


def digest(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            h.update(str(p.relative_to(folder)).encode() + p.read_bytes())
    return h.hexdigest()


def summary(out: Path) -> str:
    """What expected/module-NAME.out pins, from a convert OUT."""
    rep = json.loads((out / "report.json").read_text())
    lines = []
    for f in rep["files"]:
        lines.append(f"{f['path']}: {f['status']}" + (f": {f['reason']}" if f.get("reason")
                                                       else ""))
        for s in f.get("sites", []):
            if s.get("verdict"):
                lines.append(f"  {s['line']} {s['function']}() {s['api']} -> "
                             f"{s['replacement']}: {s['verdict']}"
                             + (f" ({s['analysis']})" if s.get("analysis") else ""))
    for mail in sorted((out / "series").glob("*/*.patch")):
        head = mail.read_text().split("\n\n", 1)[0]
        lines += [ln for ln in head.splitlines() if ln.startswith(("Subject:", "To:"))]
    return "\n".join(lines) + "\n\n" + (out / "all.patch").read_text()


def run_case(src: Path, tmp: Path) -> tuple[str, str]:
    """(problem or "", the summary) of one module."""
    mod = tmp / src.name           # a copy outside any git checkout
    shutil.copytree(src, mod)
    before = digest(mod)
    out = tmp / "out"
    r = subprocess.run([sys.executable, "-m", "detasklet", "-q", "convert", str(KDIR),
                        "--module", str(mod), "--to", TO, "-o", str(out), "-j", "2",
                        "--no-cache"], capture_output=True, text=True,
                       env={**os.environ, **ENV})
    if r.returncode:
        return f"convert exited {r.returncode}: {r.stderr.strip()[-300:]}", ""
    if digest(mod) != before:
        return "the module's folder was written", ""
    text = summary(out)
    bad = [p for p in re.findall(r"^diff --git a/(\S+)", text, re.M) if not (mod / p).is_file()]
    if bad:
        return f"patch path {bad[0]} is not relative to the module's root", text
    return "", text


def errors(tmp: Path) -> list[tuple[str, str]]:
    """(case, problem or "") of the M= arguments refused in one line, exit 2,
    before any work."""
    mod = tmp / "mod"
    shutil.copytree(MODULES / "dtm-legacy", mod)
    (tmp / "empty").mkdir()
    cases = [("no-such-module", ["--module", str(tmp / "nope")], "no such folder"),
             ("no-kbuild", ["--module", str(tmp / "empty")], "no Kbuild or Makefile"),
             ("out-inside-module", ["--module", str(mod), "-o", str(mod / "out")],
              "is inside M="),
             ("decisions-without-m", ["--decisions", str(tmp)], "say M= too"),
             ("bad-to", ["--module", str(mod), "--to", "nobody"], "is not an address"),
             ("module-as-kdir", ["KDIR"], "say M=")]
    got = []
    for name, args, want in cases:
        if "-o" not in args:
            args = args + ["-o", str(tmp / "out")]
        kdir = [str(mod)] if args[0] == "KDIR" else [str(KDIR)]
        args = [a for a in args if a != "KDIR"]
        r = subprocess.run([sys.executable, "-m", "detasklet", "convert", *kdir, *args],
                           capture_output=True, text=True, env={**os.environ, **ENV})
        lines = r.stderr.strip().splitlines()
        ok = r.returncode == 2 and len(lines) == 1 and want in lines[0] \
            and not (tmp / "out").exists() and not (mod / "out").exists()
        got.append((f"error {name}", "" if ok else
                    f"exit {r.returncode}, stderr {r.stderr.strip()[-200:]!r}"))
    out = tmp / "made"
    r = subprocess.run([sys.executable, "-m", "detasklet", "-q", "convert", str(KDIR), "--module",
                        str(mod), "-o", str(out), "--no-cache"], capture_output=True, text=True,
                       env={**os.environ, **ENV})
    for cmd in (["series", str(KDIR)], ["send-check", str(KDIR)],
                ["compile-test", str(KDIR), "--check"]):
        p = subprocess.run([sys.executable, "-m", "detasklet", *cmd, "-o", str(out)],
                           capture_output=True, text=True, env={**os.environ, **ENV})
        lines = p.stderr.strip().splitlines()
        ok = r.returncode == 0 and p.returncode == 2 and len(lines) == 1 \
            and "was made with M=" in lines[0]
        got.append((f"error module-out-to-{cmd[0]}", "" if ok else
                    f"exit {p.returncode}, stderr {p.stderr.strip()[-200:]!r}"))
    # how compile-test M= builds it: MDIR= inside the module, MVARS= of VAR=value
    for name, args, want in (
            ("mdir-without-m", ["--module-dir", "x"], "say M= too"),
            ("mdir-outside", ["--module", str(mod), "--module-dir", "../"], "not a folder inside"),
            ("mdir-no-kbuild", ["--module", str(mod), "--module-dir", "."], ""),
            ("mvars-not-var", ["--module", str(mod), "--module-vars", "X=1 -j8"],
             "is not VAR=value")):
        p = subprocess.run([sys.executable, "-m", "detasklet", "compile-test", str(KDIR), "-o",
                            str(out), "--check", *args], capture_output=True, text=True,
                           env={**os.environ, **ENV})
        lines = p.stderr.strip().splitlines()
        ok = p.returncode == 0 and not lines if not want else \
            p.returncode == 2 and len(lines) == 1 and want in lines[0]
        got.append((f"error compile-test-{name}", "" if ok else
                    f"exit {p.returncode}, stderr {p.stderr.strip()[-200:]!r}"))
    return got


def main() -> int:
    update = "--update" in sys.argv
    names = [a for a in sys.argv[1:] if not a.startswith("--")]
    passed = failed = 0
    for src in sorted(p for p in MODULES.iterdir() if p.is_dir()):
        if names and not any(n in src.name for n in names):
            continue
        want = EXPECTED / f"module-{src.name}.out"
        with tempfile.TemporaryDirectory(prefix="detasklet-mod-") as t:
            why, got = run_case(src, Path(t))
        if not why and update:
            want.write_text(got)
        elif not why and (not want.is_file() or want.read_text() != got):
            old = want.read_text().splitlines() if want.is_file() else []
            diff = [ln for ln in difflib.unified_diff(
                old, got.splitlines(), "expected", "got", lineterm="", n=1)][:40]
            why = "output differs from " + want.name + ":\n  " + "\n  ".join(diff)
        print(f"{'FAIL' if why else 'ok  '} module {src.name}" + (f": {why}" if why else ""))
        passed, failed = passed + (not why), failed + bool(why)
    if not names:
        with tempfile.TemporaryDirectory(prefix="detasklet-mod-") as t:
            for name, why in errors(Path(t)):
                print(f"{'FAIL' if why else 'ok  '} {name}" + (f": {why}" if why else ""))
                passed, failed = passed + (not why), failed + bool(why)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
