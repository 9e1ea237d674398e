# SPDX-License-Identifier: GPL-2.0-only
"""make report: the figures of an OUT, from its files, for a person.

The counts by status, the files by reason left unconverted, the patches
of series/, and what make compile-test recorded: the numbers the README
does not keep, since they change with every rule and every tree.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from .files import Status, builds, load_report, series_patches
from .origin import read_run


def _reason(text: str) -> str:
    """A reason without its places, so that equal reasons count together."""
    text = re.sub(r"'[^']*'", "'…'", text)
    text = re.sub(r"\bline \d+(, \d+)*", "line N", text)
    return re.sub(r"\s+", " ", re.sub(r"with \S+, which", "with a file that", text)).strip()


def lines(out: Path, top: int = 12) -> list[str]:
    rep = load_report(out)
    # a file a driver's own patch changes without naming the API (ccree's
    # cc_driver.h) is in report.json, with api [], but is not a user
    files = [f for f in rep["files"] if f.get("api", True)]
    n = len(files)
    count = Counter(f["status"] for f in files)
    conv = count[Status.CONVERTED]
    patches = series_patches(out)
    nseries = len([d for d in (out / "series").glob("*/") if d.is_dir()])
    res = [f"Linux {rep.get('kernel', '?')}: {n} files use the tasklet API; {conv} converted "
           f"({100 * conv / max(n, 1):.1f}%), {count[Status.UNCONVERTED]} unconverted, "
           f"{count[Status.FAILED]} failed; {len(patches)} patches in {nseries} series in series/"]
    why = Counter(_reason(f["reason"]) for f in files if f["status"] != Status.CONVERTED)
    if why:
        res += ["", "Left unconverted, by reason (most first):"]
        res += [f"  {k:4d}  {r if len(r) < 100 else r[:99] + '…'}" for r, k in why.most_common(top)]
        if len(why) > top:
            res.append(f"        ... and {len(why) - top} more reasons (report.md lists each file)")
    b = builds(rep)
    if b:
        ok = sum(r.builds for r in b.values())
        reg = sum(r.regression for r in b.values())
        res += ["", f"compile-test: {ok} of {len(b)} converted files build converted; "
                    f"{reg} regressions"]
    return res + run_lines(out)


def run_lines(out: Path) -> list[str]:
    """What run.json says of the convert that made OUT: its tree, its
    time by stage, what the cache gave."""
    run = read_run(out)
    if not run:
        return []
    times = run.get("timings") or {}
    res = ["", f"made from KDIR {run.get('kdir', '?')} (Linux {run.get('kernel', '?')}) in "
               f"{sum(times.values()):.0f} s: "
               + ", ".join(f"{k} {v:.0f} s" for k, v in times.items())]
    if run.get("cache"):
        res.append(f"cache: {run['cache'].get('reused', 0)} results reused, "
                   f"{run['cache'].get('computed', 0)} computed")
    return res
