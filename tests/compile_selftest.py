#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""compile-test must catch a conversion that breaks the build.

Takes the OUT of `make compile-sample`, adds one line that cannot compile
to a converted file of its all.patch, and runs compile-test on that file
with the sample's build folders: it must exit 1, name the file as a
regression and write that into report.json. Then the file's whole change is
one line under an #ifdef no config sets: its object builds, but the changed
line is not compiled, so report.json and its mail must not call it built.
Then the real patch is put back (the next compile-sample run refreshes the
one file).
Closing line: 'N passed, N failed'.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from detasklet.ctext.gitdiff import file_diff, parse  # noqa: E402
from fixtures import Tally  # noqa: E402

VICTIM = "net/atm/pppoatm.c"
BROKEN = "static int detasklet_selftest_broken = undeclared_on_purpose;\n"
OFF = "#ifdef CONFIG_DETASKLET_SELFTEST_NEVER\nstatic int detasklet_selftest_off;\n#endif\n"


def compile_test(kdir: Path, out: Path, build: Path, new: str) -> tuple[subprocess.CompletedProcess,
                                                                        dict]:
    """compile-test of VICTIM, its part of all.patch made new; its record."""
    orig = (kdir / VICTIM).read_text()
    kept = [fd.text for fd in parse((out / "all.patch").read_text()) if fd.path != VICTIM]
    (out / "all.patch").write_text("".join(kept) + file_diff(VICTIM, orig, new))
    env = {**os.environ, "PYTHONPATH": str(ROOT / "scripts")}
    p = subprocess.run([sys.executable, "-m", "detasklet", "compile-test", str(kdir),
                        "-o", str(out), "--build-dir", str(build), "--arches", "x86_64",
                        "-q", "--files", VICTIM], capture_output=True, text=True, env=env)
    rec = next((f.get("build", {}) for f in json.loads((out / "report.json").read_text())["files"]
                if f["path"] == VICTIM), {})
    return p, rec


def mail_of(out: Path) -> str:
    """The series mail that changes VICTIM."""
    return next((m.read_text() for m in sorted((out / "series").rglob("*.patch"))
                 if f"+++ b/{VICTIM}" in m.read_text()), "")


def main() -> int:
    kdir, sample_out, build = (Path(a).resolve() for a in sys.argv[1:4])
    # Beside the build folder, not in it: a build folder may be emptied, so
    # compile-test refuses one that holds OUT.
    out = build.parent / f"{build.name}-selftest-out"
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(sample_out, out)
    # The converted text of VICTIM: the sample's converted copy holds it.
    conv = (build / "src-converted" / VICTIM).read_text()
    p, rec = compile_test(kdir, out, build, conv + BROKEN)
    checks = {
        "exit code 1": p.returncode == 1,
        "regression printed": f"REGRESSION {VICTIM}" in p.stdout,
        "first error in the log": "undeclared_on_purpose" in rec.get("log", ""),
        "report.json: pristine ok, converted error": (rec.get("pristine"), rec.get("converted"))
        == ("ok", "error"),
        "report.md lists it": f"**`{VICTIM}`**" in (out / "report.md").read_text(),
    }
    off, orec = compile_test(kdir, out, build, (kdir / VICTIM).read_text() + OFF)
    checks.update({
        "compiled-out change: exit code 0": off.returncode == 0,
        "compiled-out change: the object builds": orec.get("converted") == "ok",
        "compiled-out change: report.json, 0 of 1 changed lines":
            orec.get("changed_lines") == {"compiled": 0, "of": 1},
        "compiled-out change: its mail says not built":
            f"Not built: {VICTIM} (its objects build, but none" in " ".join(mail_of(out).split()),
    })
    tally = Tally()
    for name, ok in checks.items():
        tally.case(name if name.startswith("compiled-out") else f"broken-conversion: {name}",
                   "" if ok else "not seen")
    if tally.failed:
        print(p.stdout[-2000:], p.stderr[-2000:], off.stdout[-2000:], off.stderr[-2000:])
    return tally.close()


if __name__ == "__main__":
    sys.exit(main())
