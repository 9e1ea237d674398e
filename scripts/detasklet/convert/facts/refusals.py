# SPDX-License-Identifier: GPL-2.0-only
"""Stage 2: why a file of a group cannot convert, found before spatch runs.

Three refusals read the file's masked code: tasklet internals used (->func,
->data, ->state... have no work_struct equivalent), a
tasklet_disable_in_atomic() whose argument has a side effect (its rewrite
names the argument twice), and a sync call (kill, disable, unlock_wait)
reached from a callback registered as one that runs in atomic context,
where the work_struct calls may sleep. The sync calls under a lock are
found by cocci/15-report-sync-in-atomic.cocci, with the group's sync
helpers computed here.
"""

from __future__ import annotations

import re

from ...ctext import registrations
from ...ctext.lex import functions, line_of
from ...ctext.tasklet import (IN_ATOMIC_RE, SCHED_TEST_RE, SYNC_CALL_RE, declaration_of,
                              file_scope_tasklet)

_INTERNAL = ("func", "data", "callback", "use_callback", "count", "next", "state")


def internals(code: str, names: set[str]) -> str:
    """Why code reads a member of a tasklet (names: the group's declared
    tasklets) that a work_struct does not have; "" when it does not."""
    if not names:
        return ""
    internal = re.compile(r"\b(" + "|".join(sorted(names)) + r")\s*(?:\.|->)\s*("
                          + "|".join(_INTERNAL) + r")\b")
    masked = SCHED_TEST_RE.sub(lambda t: re.sub(r"\S", " ", t.group(0)), code)
    m = next((m for m in internal.finditer(masked) if _is_tasklet_at(masked, m)), None)
    if not m:
        return ""
    return (f"tasklet internals: '{m.group(0)}' at line {line_of(code, m.start())} has no "
            "work_struct equivalent")


def _is_tasklet_at(code: str, m: re.Match[str]) -> bool:
    """Whether the NAME of a NAME->member match is a tasklet. A member
    (x->NAME.state) is taken as one: the name was declared as a tasklet
    field. A plain variable (t->next) is one only if the function around
    the match declares it struct tasklet_struct: brcmsmac's timer loop
    variable t is not the t of its tasklet callback."""
    name = m.group(1)
    if re.search(r"(?:\.|->)\s*$", code[:m.start()]):
        return True
    if file_scope_tasklet(code, name):
        return True                                   # a file-scope tasklet
    start = code.rfind("\n{", 0, m.start())          # kernel style: { in column 0
    head = code.rfind("\n\n", 0, start) if start >= 0 else -1
    return declaration_of(name).search(code[max(head, 0):m.start()]) is not None


_SIDE_EFFECT_RE = re.compile(r"(\w+)\s*\(|\+\+|--|[^=!<>]=(?!=)")


def in_atomic_side_effect(code: str, group_code: str) -> str:
    """Why a tasklet_disable_in_atomic() of this file cannot take the
    rewrite of cocci/40-calls.cocci, which names its argument twice
    (disable_work(E); while (work_busy(E) ...)): an argument with a side
    effect. A call is one unless it is a function-like macro of the group
    whose body has none (eni's ENI_DEV(d), a cast of d->dev_data). "" when
    every site takes the rewrite."""
    for m in IN_ATOMIC_RE.finditer(code):
        for s in _SIDE_EFFECT_RE.finditer(m.group(1)):
            if s.group(1) and _pure_macro(s.group(1), group_code):
                continue
            return (f"tasklet_disable_in_atomic() at line {line_of(code, m.start())}: its "
                    f"argument '{m.group(1).strip()}' has a side effect "
                    f"('{s.group(0).strip()}'), and its replacement names it twice")
    return ""


def has_side_effect(expr: str) -> bool:
    """A call, ++, -- or an assignment in expr."""
    return _SIDE_EFFECT_RE.search(expr) is not None


def _pure_macro(name: str, code: str) -> bool:
    d = re.search(r"^[ \t]*#[ \t]*define[ \t]+" + re.escape(name) + r"\(([^)]*)\)(.*)$",
                  code, re.M)
    if not d or d.group(2).rstrip().endswith("\\"):
        return False                    # not a macro of the group, or a long one
    return not has_side_effect(d.group(2))


def atomic_entry(code: str, helpers: set[str]) -> str:
    """Why a sync tasklet call of this file can run in atomic context:
    a callback registered as one that runs there (ndo_tx_timeout, timer,
    interrupt handler, tasklet) reaches tasklet_kill/disable/unlock_wait,
    itself or through the group's sync helpers. "" when none does."""
    if not any(h in code for h in helpers):
        return ""
    for name, what, line in registrations.atomic(code):     # ctext.registrations
        if name in helpers:
            return (f"{name}() reaches a tasklet kill/disable/unlock_wait and runs "
                    f"as {what} (registered at line {line}): the "
                    "work_struct sync calls may sleep there")
    return ""


def sync_helpers(codes: list[str]) -> set[str]:
    """Functions of the group that call tasklet_kill/disable/unlock_wait,
    directly or through each other: cocci/15-report-sync-in-atomic.cocci
    looks for calls of these under a lock too."""
    bodies: dict[str, str] = {}
    for code in codes:
        bodies.update(functions(code))
    found = {n for n, b in bodies.items() if SYNC_CALL_RE.search(b)}
    while True:
        calls = re.compile(r"\b(" + "|".join(sorted(found)) + r")\s*\(") if found else None
        more = {n for n, b in bodies.items() if n not in found and calls and calls.search(b)}
        if not more:
            return found
        found |= more
