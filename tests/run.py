#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The runners of make test-fast, one after the other, and one total.

    python3 tests/run.py tests/cli.py tests/safety.py ... types

Each runner prints one line per case and closes with 'N passed, N failed'
(', N skipped'); its output is passed through as it comes. `types` is the
type check (mypy, mypy.ini): one case. A runner whose closing line is
missing, or that exits non-zero with no failed case, counts as one failed
case. Closes with 'total: N passed, N failed[, N skipped]'; exit 1 on any
failure.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLOSING_RE = re.compile(r"^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$")


def run(name: str) -> tuple[int, int, int]:
    """(passed, failed, skipped) of one runner, its output passed through."""
    cmd = ["mypy", "--config-file", "mypy.ini"] if name == "types" else [sys.executable, name]
    p = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True)
    assert p.stdout is not None
    last = None
    for line in p.stdout:
        print(line, end="", flush=True)
        m = CLOSING_RE.match(line.strip())
        last = m or last
    rc = p.wait()
    if name == "types":
        print(f"{'ok  ' if rc == 0 else 'FAIL'} types (mypy)", flush=True)
        return (1, 0, 0) if rc == 0 else (0, 1, 0)
    if last is None:
        print(f"FAIL {name}: no closing 'N passed, N failed' line (exit {rc})", flush=True)
        return 0, 1, 0
    passed, failed, skipped = (int(g or 0) for g in last.groups())
    if rc and not failed:
        print(f"FAIL {name}: exit {rc} with no failed case", flush=True)
        failed = 1
    return passed, failed, skipped


def main(names: list[str]) -> int:
    total = [0, 0, 0]
    for name in names:
        for i, n in enumerate(run(name)):
            total[i] += n
    passed, failed, skipped = total
    print(f"total: {passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
