# SPDX-License-Identifier: GPL-2.0-only
"""A boot's serial log read back, the two kernels compared, runtime.json.

parse() cuts the serial log at the guest's markers (scripts/runtime/init.sh)
into the boot and one slice per workload, each with its status, figures,
profiler hits and the kernel's reports in it (logcheck.find). compare()
gives each workload its verdict:
    pass                 passed on both kernels, no kernel report in either
    FAIL                 failed (or a kernel report) on the converted kernel
                         only: a regression
    fails-on-both        failed on the pristine kernel too: not counted
    pristine-only-fail   passed on the converted kernel, failed on the
                         pristine one (not counted either)
    not-run              a kernel did not reach it (an earlier crash, the
                         timeout)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import logcheck

MARK = re.compile(r"^@@detasklet (?P<what>\w+)(?: (?P<rest>.*))?$")


@dataclass
class Slice:
    name: str
    first_line: int
    lines: list[str] = field(default_factory=list)
    status: str = "not-run"       # pass, fail, crashed, not-run
    secs: float | None = None
    figures: dict[str, str] = field(default_factory=dict)
    hits: dict[str, int] = field(default_factory=dict)
    reasons: list[str] = field(default_factory=list)
    findings: list[logcheck.Finding] = field(default_factory=list)


@dataclass
class Run:
    boot: Slice
    workloads: dict[str, Slice]
    done: bool                     # the guest's /init reached its end
    profiled: int | None


def _mark(slice_: Slice, what: str, rest: str) -> None:
    parts = rest.split()
    if what == "figure" and len(parts) >= 3:
        slice_.figures[parts[1]] = " ".join(parts[2:])
    elif what == "hit" and len(parts) == 3 and parts[2].isdigit():
        slice_.hits[parts[1]] = slice_.hits.get(parts[1], 0) + int(parts[2])
    elif what == "fail":
        slice_.reasons.append(" ".join(parts[1:]))
    elif what == "end":
        kv = dict(p.split("=", 1) for p in parts[1:] if "=" in p)
        slice_.status = "pass" if kv.get("rc") == "0" else "fail"
        if kv.get("rc") not in (None, "0") and not slice_.reasons:
            slice_.reasons.append(f"exit {kv.get('rc')}")
        try:
            slice_.secs = float(kv.get("secs", ""))
        except ValueError:
            pass


def parse(log: str, names: list[str]) -> Run:
    """The serial log of one boot that ran the workloads `names`."""
    boot = Slice("boot-log", 1, status="pass")
    slices = {n: Slice(n, 0) for n in names}
    cur = boot
    done, profiled = False, None
    for i, raw in enumerate(log.splitlines(), 1):
        line = raw.rstrip("\r")
        m = MARK.match(line.strip())
        if not m:
            cur.lines.append(line)
            continue
        what, rest = m.group("what"), m.group("rest") or ""
        name = rest.split()[0] if rest else ""
        if what == "begin" and name in slices:
            cur = slices[name]
            cur.first_line, cur.status = i + 1, "crashed"
        elif what == "end" and name == cur.name:
            _mark(cur, what, rest)
            cur = Slice("after", i + 1)
        elif what == "done":
            done = True
        elif what == "profiled" and rest.strip().isdigit():
            profiled = int(rest)
        elif name == cur.name:
            _mark(cur, what, rest)
    for s in [boot, *slices.values()]:
        s.findings = logcheck.find("\n".join(s.lines), max(s.first_line, 1))
    if not any(s.status != "not-run" for s in slices.values()) and not done:
        boot.status = "fail"
        boot.reasons.append("the guest's /init never started a workload")
    return Run(boot, slices, done, profiled)


def all_findings(run: Run) -> list[logcheck.Finding]:
    return run.boot.findings + [f for s in run.workloads.values() for f in s.findings]


def verdict(pristine: Slice | None, converted: Slice, known: set[str] | None = None) -> str:
    """known: the keys (logcheck.key) of the other kernel's findings; an
    initcall failure both kernels had does not count."""
    known = known or set()
    ok_c = converted.status == "pass" and not logcheck.significant(converted.findings, known)
    if converted.status in ("not-run",) or (pristine and pristine.status == "not-run"):
        return "not-run"
    if pristine is None:
        return "pass-converted-only" if ok_c else "FAIL"
    ok_p = pristine.status == "pass" and not logcheck.significant(pristine.findings, known)
    if ok_c and ok_p:
        return "pass"
    if not ok_p and not ok_c:
        return "fails-on-both"
    return "pristine-only-fail" if ok_c else "FAIL"


def exercised(hits: dict[str, int], functions: dict[str, list[str]]) -> dict[str, list[str]]:
    """file -> its converted functions the profiler saw run (count > 0)."""
    out = {}
    for f, fns in functions.items():
        ran = [fn for fn in fns if hits.get(fn, 0) > 0]
        if ran:
            out[f] = ran
    return out
