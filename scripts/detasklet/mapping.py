# SPDX-License-Identifier: GPL-2.0-only
"""The mapping from the tasklet API to BH workqueues: the one table.

Each row is one API and what it becomes. The commit messages print the
rows and notes of the APIs a patch removes (series/message.py); report.json
lists the rows a converted file used; the renames inside #define bodies
(convert/rewrite/fixups.py) are the rows with a `macro` replacement, the one-for-one
calls; the README's table is readme_table(). The semantic patches of
cocci/ do the rewriting, and tests/unit/test_mapping.py checks that every
one-for-one row is a rule there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Collection

from .ctext.lex import literal_first


@dataclass(frozen=True)
class Row:
    key: str          # the API, as report.json and the messages name it
    old: str          # regex that finds the API in C (removed lines, masked code)
    new: str          # "old -> new", as the commit messages print it
    note: str = ""    # where the behaviour differs, for the commit message
    macro: str = ""   # replacement of old inside a #define body ("" when not one-for-one)

    @property
    def pattern(self) -> re.Pattern[str]:
        return re.compile(literal_first(self.old))


MAPPING: tuple[Row, ...] = (
    Row("struct", r"\bstruct\s+tasklet_struct\b", "struct tasklet_struct -> struct work_struct",
        macro="struct work_struct"),
    Row("DECLARE_TASKLET_OLD", r"\bDECLARE_TASKLET_OLD\s*\(",
        "DECLARE_TASKLET_OLD() -> DECLARE_WORK()",
        "The DECLARE_TASKLET_OLD() callback ignored its argument; it now takes "
        "the struct work_struct pointer and still ignores it."),
    Row("DECLARE_TASKLET", r"\bDECLARE_TASKLET\s*\(", "DECLARE_TASKLET() -> DECLARE_WORK()"),
    Row("DECLARE_TASKLET_DISABLED", r"\bDECLARE_TASKLET_DISABLED(?:_OLD)?\s*\(",
        "DECLARE_TASKLET_DISABLED() -> DECLARE_WORK(), its one enable removed",
        "The tasklet was declared disabled and enabled once, in the module's "
        "init, before anything could schedule it: it never held a run back, so "
        "the work item is declared enabled and the enable goes."),
    Row("tasklet_setup", r"\btasklet_setup\s*\(", "tasklet_setup() -> INIT_WORK()",
        macro="INIT_WORK("),
    Row("tasklet_init", r"\btasklet_init\s*\(", "tasklet_init() -> INIT_WORK()",
        "Callbacks that were registered with tasklet_init() and took an "
        "unsigned long now take the struct work_struct pointer; where the "
        "data passed was the object that contains the work item, they find "
        "it with from_work()."),
    Row("from_tasklet", r"\bfrom_tasklet\s*\(", "from_tasklet() -> from_work()",
        macro="from_work("),
    Row("tasklet_hi_schedule", r"\btasklet_hi_schedule\s*\(",
        "tasklet_hi_schedule() -> queue_work(system_bh_highpri_wq, ...)",
        macro="queue_work(system_bh_highpri_wq, "),
    Row("tasklet_schedule", r"\btasklet_schedule\s*\(",
        "tasklet_schedule() -> queue_work(system_bh_wq, ...)"),
    # kill and enable: what each site becomes is chosen for it (convert.verdicts.sites),
    # and the message says so site by site, so neither has a note or a macro
    # rename here.
    Row("tasklet_kill", r"\btasklet_kill\s*\(",
        "tasklet_kill() -> cancel_work_sync(), flush_work() or both, per site"),
    Row("tasklet_disable_nosync", r"\btasklet_disable_nosync\s*\(",
        "tasklet_disable_nosync() -> disable_work()", macro="disable_work("),
    Row("tasklet_disable", r"\btasklet_disable\s*\(", "tasklet_disable() -> disable_work_sync()",
        macro="disable_work_sync("),
    Row("tasklet_disable_in_atomic", r"\btasklet_disable_in_atomic\s*\(",
        "tasklet_disable_in_atomic() -> disable_work() and a wait on work_busy(), "
        "or disable_work_sync(), per site",
        "tasklet_disable_in_atomic() becomes disable_work() and a loop that "
        "waits, without sleeping, until work_busy() no longer reports the "
        "callback running, as tasklet_unlock_spin_wait() did. "
        "disable_work_sync() would not do here: it may sleep."),
    Row("tasklet_enable", r"\btasklet_enable\s*\(",
        "tasklet_enable() -> enable_work(), enable_and_queue_work() or a tracked enable, "
        "per site"),
    Row("tasklet_unlock_wait", r"\btasklet_unlock_wait\s*\(",
        "tasklet_unlock_wait() -> flush_work()", macro="flush_work("),
    Row("TASKLET_STATE_SCHED", r"\bTASKLET_STATE_SCHED\b",
        "test_bit(TASKLET_STATE_SCHED, ...) -> work_pending()"),
)


def used(code: str) -> list[Row]:
    """The rows whose API code names (DECLARE_TASKLET( does not count
    DECLARE_TASKLET_OLD(: each pattern ends at the name)."""
    return [r for r in MAPPING if r.pattern.search(code)]


def row_key(row: str) -> str:
    """The key of the API a row written by hand names on its left side
    ("DECLARE_TASKLET_DISABLED_OLD() -> ..." -> DECLARE_TASKLET_DISABLED);
    "" when it names none."""
    left = row.partition(" -> ")[0].strip()
    return next((r.key for r in MAPPING if r.pattern.match(left)), "") if " -> " in row else ""


def readme_table() -> str:
    """The mapping as the README shows it."""
    lines = ["| tasklet | becomes |", "|---|---|"]
    for r in MAPPING:
        old, new = r.new.split(" -> ")
        lines.append(f"| `{old}` | `{new}` |")
    return "\n".join(lines) + "\n"


def bh_queue(item: str, hi_items: Collection[str]) -> str:
    """The one BH workqueue of a tasklet item (its key): the highpri one
    for an item that is hi-scheduled anywhere (a work item is non-reentrant
    only within one workqueue, so all its schedules and its enable queue it
    there), else system_bh_wq."""
    return "system_bh_highpri_wq" if item in hi_items else "system_bh_wq"
