#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The bar of a TARGET=thread output (issue #38), checked from OUT's
report.json and all.patch and KDIR's code (detasklet.check.thread_bar):

    tests/thread_bar.py OUT [KDIR]       (KDIR: OUT/run.json's when not given)
    tests/thread_bar.py --outside OUT [KDIR]
        for any run's OUT (a BH one too): the converted .c files outside the
        paths of policies.toml's choices and dmaengine, and those of them whose
        driver's code shows block I/O (what a TARGET=thread run must keep)

One line per check ('ok' or 'FAIL', with every failure under it), then
'N passed, N failed'; exit 1 when a check fails, 2 on a bad OUT.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

from detasklet.check import thread_bar  # noqa: E402
from detasklet.errors import InputError  # noqa: E402


def main(argv: list[str]) -> int:
    only_outside = argv[:1] == ["--outside"]
    argv = argv[1:] if only_outside else argv
    if len(argv) not in (1, 2):
        print("usage: tests/thread_bar.py [--outside] OUT [KDIR]", file=sys.stderr)
        return 2
    out = Path(argv[0])
    try:
        kdir = Path(argv[1]) if len(argv) == 2 else Path(
            json.loads((out / "run.json").read_text())["kdir"])
        if only_outside:
            n, found = thread_bar.outside(out, kdir)
            print(f"{out}: {n} converted .c files outside the choices; block I/O in the "
                  f"driver of {len(found)}:")
            print("\n".join(f"     {line}" for line in found))
            return 0
        results = thread_bar.check(out, kdir)
    except (OSError, ValueError, KeyError, InputError) as e:
        print(f"thread_bar: {e}", file=sys.stderr)
        return 2
    o = thread_bar.load(out)
    print(f"{out}: {len(o.files)} converted files, {len(o.moved)} queue on a "
          f"process-context workqueue (KDIR {kdir})")
    failed = 0
    for name, bad in results.items():
        print(f"{'ok  ' if not bad else 'FAIL'} {name}" + (f" ({len(bad)})" if bad else ""))
        for line in bad:
            print(f"     {line}")
        failed += bool(bad)
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
