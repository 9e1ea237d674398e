# SPDX-License-Identifier: GPL-2.0-only
"""The guest's kernel log, checked: what a converted kernel must never print.

find() returns one Finding per report the kernel made: a WARNING or BUG
splat, a lockdep report, a debugobjects (ODEBUG) report, a hung task, a
workqueue stall or lockup, a soft or hard lockup, an Oops or panic, and an
initcall that returned an error ("initcall dma_bus_init+0x0/0x50 returned
-12 after 3 usecs": the 6.12.118 failure of the dmaengine prep patch).
Only the kernel's own lines count: the serial log also carries the
workloads' output, and a workload that prints "BUG:" is not the kernel.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A kernel line on the serial console: "[    1.234567] text" (PRINTK_TIME).
KLINE = re.compile(r"^\s*\[\s*\d+\.\d+\]\s?(?P<text>.*)$")

# (kind, pattern on the text of a kernel line)
PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("warning", re.compile(r"^WARNING: (CPU: |at )")),
    ("lockdep", re.compile(r"^WARNING: (possible circular locking dependency|possible recursive "
                           r"locking|inconsistent lock state|suspicious RCU usage|lock held when "
                           r"returning|bad unlock balance|held lock freed|possible irq lock "
                           r"inversion|HARDIRQ-safe -> HARDIRQ-unsafe|SOFTIRQ-safe -> "
                           r"SOFTIRQ-unsafe|still has locks held|nested lock|"
                           r"Nested lock|circular)")),
    ("lockdep", re.compile(r"^(INFO: possible circular locking|INFO: trying to register "
                           r"non-static key|BUG: sleeping function called from invalid "
                           r"context|BUG: scheduling while atomic|BUG: MAX_LOCKDEP)")),
    ("workqueue", re.compile(r"^(BUG: workqueue lockup|workqueue: .*(hogged CPU|stall)|"
                             r"Showing busy workqueues)")),
    ("bug", re.compile(r"^(BUG: |kernel BUG at |Oops: |general protection fault|"
                       r"Unable to handle kernel)")),
    ("panic", re.compile(r"^Kernel panic - not syncing")),
    ("odebug", re.compile(r"^ODEBUG: ")),
    ("hung-task", re.compile(r"^INFO: task .* blocked for more than \d+ seconds")),
    ("lockup", re.compile(r"^(watchdog: BUG: soft lockup|watchdog: Watchdog detected hard "
                          r"LOCKUP|NMI watchdog: .*LOCKUP|rcu: INFO: rcu_\w+ detected stalls)")),
    ("initcall", re.compile(r"^initcall (?P<fn>\S+?)(\+0x[0-9a-f]+/0x[0-9a-f]+)?"
                            r"( \[[^]]*\])? returned (?P<rc>-\d+)")),
]

# The first match wins: the more specific kinds come first.
ORDER = ["lockdep", "workqueue", "lockup", "warning", "panic", "bug", "odebug", "hung-task",
         "initcall"]


@dataclass(frozen=True)
class Finding:
    kind: str
    line: int       # 1-based line number in the log
    text: str       # the kernel line, without the time stamp

    def __str__(self) -> str:
        return f"{self.kind}: line {self.line}: {self.text}"


def kernel_text(line: str) -> str | None:
    """The text of a kernel line ("[  1.2] text"), None for any other line."""
    m = KLINE.match(line.rstrip("\r\n"))
    return m.group("text") if m else None


def classify(text: str) -> str | None:
    """The kind of report a kernel line starts, or None."""
    by_kind: dict[str, bool] = {}
    for kind, pat in PATTERNS:
        if pat.search(text):
            by_kind[kind] = True
    for kind in ORDER:
        if by_kind.get(kind):
            return kind
    return None


def find(log: str, first_line: int = 1) -> list[Finding]:
    """Every report in a serial log (or a slice of one starting at first_line)."""
    out = []
    for i, line in enumerate(log.splitlines(), first_line):
        text = kernel_text(line)
        if text is None:
            continue
        kind = classify(text)
        if kind:
            out.append(Finding(kind, i, text.strip()))
    return out


def key(f: Finding) -> str:
    """A finding without what changes from boot to boot (addresses, times)."""
    text = re.sub(r"\+0x[0-9a-f]+/0x[0-9a-f]+", "", f.text)
    text = re.sub(r" after \d+ usecs", "", text)
    return f"{f.kind}: {text}"


def significant(findings: list[Finding], known: set[str]) -> list[Finding]:
    """The findings that count against a kernel: all but an initcall failure
    the other kernel's boot had too (known: its keys), such as a PMU driver's
    -ENODEV under QEMU."""
    return [f for f in findings if not (f.kind == "initcall" and key(f) in known)]


def summary(findings: list[Finding]) -> str:
    """"clean" or "2 lockdep, 1 warning"."""
    if not findings:
        return "clean"
    counts: dict[str, int] = {}
    for f in findings:
        counts[f.kind] = counts.get(f.kind, 0) + 1
    return ", ".join(f"{n} {k}" for k, n in counts.items())
