#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The verdict of every enable/kill/disable/... site of a tree, and each
refused file with its reason, without spatch: the scan, the groups and the
choice of convert (convert.pipeline up to the sites), one line each,
sorted; and each exact kill whose run calls through a pointer the group
never sets (UNFOLLOWED, convert.verdicts.kills), and each flush then cancel
whose item another function not shown stopped may queue at the kill
(LIVE, convert.verdicts.queuers). Two runs (before and after a change to the analyses) compared
with diff list every site whose verdict changed:

    PYTHONPATH=scripts python3 scripts/site_verdicts.py KDIR > after.txt
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from detasklet import kdir as kdir_
from detasklet.convert import pipeline
from detasklet.convert.facts import groups, scan
from detasklet.convert.verdicts import decisions
from detasklet.ctext.sources import read_text


def main(argv: list[str]) -> int:
    kdir = Path(argv[0])
    jobs = int(argv[1]) if len(argv) > 1 else 2
    scans = scan.scan_tree(kdir, [], None, None)
    found = groups.group_files(kdir, scans, jobs, 600)
    old = {f: read_text(kdir / f) for g in found for f in g.files}
    pipeline.header_types(kdir, found)
    found = pipeline.chosen(found, old, decisions.load(), kdir_.kernel_version(kdir), jobs, 600,
                            kdir)
    lines = []
    for g in found:
        for s in g.plan.sites:
            if s.verdict or s.api != "tasklet_schedule":
                lines.append(f"{s.path}:{s.line} {s.function}() {s.api} -> "
                             f"{s.replacement or '-'}: {s.verdict or '-'} ({s.analysis})")
            blind = re.search(r"nor can (.*?), called in (\S+) (?:through a pointer|and "
                              r"defined in no file read)", s.why)
            live = re.search(r"; ([^;]*?) also queues? [^;]*: should (?:it|one of them) "
                             r"queue it between", s.why)
            if live:
                lines.append(f"{s.path}:{s.line} {s.function}() LIVE: {live.group(1)}")
            if blind:
                lines.append(f"{s.path}:{s.line} {s.function}() UNFOLLOWED: {blind.group(1)} "
                             f"in {blind.group(2)}")
        lines += [f"{f} REFUSED: {why}" for f, why in g.refusals.items()]
    print("\n".join(sorted(lines)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
