# SPDX-License-Identifier: GPL-2.0-only
"""report.json "rules": what a converted file got, row by row.

The mapping (mapping.py) says what each API may become; a file gets one of
those, or a workqueue a policy or TARGET=thread chose. So each row the
file used is written with what its rewrite holds: the schedules with the
workqueues its new text queues on (dmaengine_bh_wq, system_percpu_wq ...),
the per-site calls (kill, enable, disables, unlock_wait) with the
replacements its sites got, counted.
"""

from __future__ import annotations

import re
from collections import Counter

from ...ctext.lex import mask
from ...mapping import Row

# What each site replacement (convert.verdicts.sites) writes.
REPLACED_BY = {
    "enable_work": "enable_work()",
    "enable_and_queue_work": "enable_and_queue_work()",
    "tracked": "the tracked enable",
    "cancel_work_sync": "cancel_work_sync()",
    "flush_work": "flush_work()",
    "flush_then_cancel": "flush_work() then cancel_work_sync()",
    "disable_work_sync": "disable_work_sync()",
    "disable_work": "disable_work()",
    "removed": "no call (the item is declared enabled)",
}

# A workqueue a rewrite queues on: the system ones and a subsystem's own.
_WQ_RE = re.compile(r"\b(system_\w*wq|\w+_bh(?:_highpri)?_wq)\b")
_PER_SITE = ("tasklet_kill", "tasklet_enable", "tasklet_disable", "tasklet_disable_nosync",
             "tasklet_disable_in_atomic", "tasklet_unlock_wait")
_IN_ATOMIC = {"disable_work": "disable_work() and a wait on work_busy()"}
_KILL = {"removed": "no call (the disable before it has cancelled)"}


def queues(old: str, new: str) -> list[str]:
    """The workqueues new names that old did not, in order of name."""
    before = set(_WQ_RE.findall(mask(old)))
    return sorted(set(_WQ_RE.findall(mask(new))) - before)


def got(rows: list[Row], old: str, new: str, sites: list[dict]) -> list[str]:
    """Each row as this file got it ("tasklet_schedule() -> queue_work(
    dmaengine_bh_wq, ...)", "tasklet_kill() -> cancel_work_sync() (2 sites),
    flush_work() then cancel_work_sync() (1 site)")."""
    qs = queues(old, new)
    hi = [q for q in qs if "highpri" in q]
    out = []
    for r in rows:
        head = r.new.split(" -> ")[0]
        if r.key in ("tasklet_schedule", "tasklet_hi_schedule"):
            use = hi if r.key == "tasklet_hi_schedule" else (
                [q for q in qs if "highpri" not in q] or hi)
            out.append(f"{head} -> " + " or ".join(f"queue_work({q}, ...)" for q in use)
                       if use else r.new)
        elif r.key in _PER_SITE:
            n = Counter(s["replacement"] for s in sites
                        if s.get("api") == r.key and s.get("replacement"))
            if not n:
                out.append(r.new)
                continue
            names = _IN_ATOMIC if r.key == "tasklet_disable_in_atomic" else \
                _KILL if r.key == "tasklet_kill" else {}
            out.append(f"{head} -> " + ", ".join(
                f"{names.get(k) or REPLACED_BY.get(k, k + '()')} ({c} site{'s' if c > 1 else ''})"
                for k, c in sorted(n.items())))
        else:
            out.append(r.new)
    return out
