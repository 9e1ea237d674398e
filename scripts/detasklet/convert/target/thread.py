# SPDX-License-Identifier: GPL-2.0-only
"""TARGET=thread: the converted work runs in process context, its
callback with bottom halves off.

The BH rewrite (convert.rewrite, convert.rewrite.classify) is done first; for a
group that converted whole, thread() then moves its work from the BH
workqueues to the per-CPU process-context ones, and puts each callback
the conversion registered behind a work function that runs it between
local_bh_disable() and local_bh_enable():

    static void foo_bh_off(struct work_struct *work)
    {
            local_bh_disable();
            foo(work);
            local_bh_enable();
    }

A tasklet callback ran in softirq context, so no softirq ran on its CPU
while it did: a plain spin_lock() on a lock that softirq code also takes
was safe there, and is a deadlock in a preemptible callback. The guard
keeps that exclusion for every callback, so the conversion does not have
to prove anything about the locks a callback takes (no analysis drops it
yet; report.json "guards" names each one). What changes is where the
callback runs: in a kworker that the scheduler sees, rather than at the
next softirq exit on that CPU.

A group thread() cannot move stays on the BH workqueues, as TARGET=bh
converts it, and report.json says why ("target_why"):
- a tasklet_disable_in_atomic() written as disable_work() and a spin on
  work_busy(): a process-context callback may be preempted on the very
  CPU that spins, which then never sees it finish;
- a callback registered inside a macro body, or as anything but a
  function name: there is no one function to guard;
- a file that already names a BH workqueue (its own items and the
  converted ones could no longer be told apart by queue).
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from ...ctext import workqueue
from ...ctext.lex import function_start, line_of, mask, paren_end, sub_code
from ...out.files import Status
from ...series.hotpaths import HotPath
from ..rewrite.classify import Outcome

BH_QUEUES = ("system_bh_wq", "system_bh_highpri_wq")
SUFFIX = "_bh_off"

_INIT_RE = re.compile(r"\b(INIT_WORK|DECLARE_WORK)\s*\(")
_SPIN_RE = re.compile(r"\bWORK_BUSY_RUNNING\b")
_DECLARE_LINE_RE = re.compile(r"^(?:static\s+)?DECLARE_WORK\(.*\);\s*$")
_IDENT_RE = re.compile(r"^[A-Za-z_]\w*$")
_COND_RE = re.compile(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b", re.M)


def conditional(code: str) -> bool:
    """Whether the end of code is under a preprocessor condition that
    its start is not: a #if still open, or an #else/#elif of one opened
    before it."""
    depth = 0
    for m in _COND_RE.finditer(code):
        d = m.group(1)
        if d.startswith("if"):
            depth += 1
        elif d == "endif":
            if depth == 0:
                return True
            depth -= 1
        elif depth == 0:
            return True
    return depth > 0


def queues(kdir: Path) -> dict[str, str]:
    """BH workqueue -> the process-context one that replaces it: the
    per-CPU workqueue schedule_work() uses (system_percpu_wq, which both
    reference trees declare; system_wq where a tree does not), and
    system_highpri_wq for the high-priority one."""
    wq = workqueue.text_of(kdir)
    percpu = "system_wq" if wq and not workqueue.declares(wq, "system_percpu_wq") else \
        "system_percpu_wq"
    return {"system_bh_wq": percpu, "system_bh_highpri_wq": "system_highpri_wq"}


def _args(code: str, open_at: int) -> tuple[list[tuple[int, int]], int]:
    """The spans of the top-level arguments of the call whose '(' is at
    open_at in masked code, and the index after its ')'."""
    end = paren_end(code, open_at + 1)
    spans, depth, start = [], 0, open_at + 1
    for i in range(open_at + 1, end - 1):
        c = code[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            spans.append((start, i))
            start = i + 1
    spans.append((start, end - 1))
    return spans, end


def _in_macro(code: str, i: int) -> bool:
    """Whether offset i of masked code is in a preprocessor line (a
    #define body, continuations included)."""
    ls = code.rfind("\n", 0, i) + 1
    while True:
        if code[ls:].lstrip(" \t").startswith("#"):
            return True
        prev = code.rfind("\n", 0, max(ls - 1, 0)) + 1
        if ls == 0 or not code[prev:ls - 1].rstrip().endswith("\\"):
            return False
        ls = prev


def _calls(code: str) -> list[tuple[str, str]]:
    """(name, text squashed) of every INIT_WORK()/DECLARE_WORK() call."""
    out = []
    for m in _INIT_RE.finditer(code):
        end = paren_end(code, m.end())
        out.append((m.group(1), re.sub(r"\s+", "", code[m.start():end])))
    return out


def _top_start(text: str, code: str, pos: int) -> int:
    """Where a new top-level definition goes before the one that holds
    pos: before the function (with its comment), or before a file-scope
    declaration (with the comment just above it)."""
    i = function_start(text, pos)
    if i >= 0:
        return i
    start = text.rfind("\n", 0, pos) + 1
    while start > 0:
        prev = text.rfind("\n", 0, start - 1) + 1
        line = text[prev:start - 1]
        # with the comment above it, and before the DECLARE_WORK()s just
        # above it: the guards of a run of them go together
        if (line.lstrip().startswith(("*", "/*", "//")) and not line.rstrip().endswith(";")) \
                or _DECLARE_LINE_RE.match(line):
            start = prev
        else:
            break
    return start


def wrapper(cb: str, name: str, header: bool) -> str:
    """The work function that runs cb with bottom halves off."""
    kind = "static inline void" if header else "static void"
    return (f"/* {cb}() ran in softirq context: keep softirqs off while it runs. */\n"
            f"{kind} {name}(struct work_struct *work)\n"
            "{\n"
            "\tlocal_bh_disable();\n"
            f"\t{cb}(work);\n"
            "\tlocal_bh_enable();\n"
            "}\n\n")


GUARD_WHY = ("the callback ran in softirq context, where no softirq could run on its CPU "
             "while it did; it now runs in process context between local_bh_disable() and "
             "local_bh_enable(), so every lock it shares with softirq code keeps that "
             "exclusion (no analysis has shown the guard unneeded)")


def file_thread(rel: str, old: str, new: str, qs: dict[str, str]
                ) -> tuple[str, list[dict]] | str:
    """new (the BH conversion of rel) moved to the process-context
    queues qs, its registered callbacks behind their guards; with the
    guards' records. A str: why it cannot be."""
    code_old, code = mask(old), mask(new)
    if _SPIN_RE.search(code) and not _SPIN_RE.search(code_old):
        return ("its tasklet_disable_in_atomic() becomes disable_work() and a wait that spins "
                "until the callback has finished; a callback in process context can be "
                "preempted on the spinning CPU, which would then wait forever.")
    for q in BH_QUEUES:
        if re.search(r"\b" + q + r"\b", code_old):
            return (f"the file already queues work on {q}; its own items and the converted "
                    "ones would run in different contexts.")
    before: dict[str, int] = {}
    for c in _calls(code_old):
        before[c[1]] = before.get(c[1], 0) + 1
    sites: list[tuple[int, int, str]] = []       # (arg start, arg end, callback)
    for m in _INIT_RE.finditer(code):
        end = paren_end(code, m.end())
        squashed = re.sub(r"\s+", "", code[m.start():end])
        if before.get(squashed):
            continue                        # the driver's own work item, not converted
        if _in_macro(code, m.start()):
            return (f"{m.group(1)}() at line {line_of(code, m.start())} is in a macro body: "
                    "the callback it registers is a macro argument, with no one function "
                    "to run with softirqs off.")
        spans, _ = _args(code, m.end() - 1)
        if len(spans) != 2:
            return (f"{m.group(1)}() at line {line_of(code, m.start())} does not have two "
                    "arguments.")
        a, b = spans[1]
        cb = code[a:b].strip()
        if not _IDENT_RE.match(cb):
            return (f"the callback {cb!r} registered at line {line_of(code, m.start())} is not "
                    "a function name: there is no one function to run with softirqs off.")
        lead = len(code[a:b]) - len(code[a:b].lstrip())
        sites.append((a + lead, a + lead + len(cb), cb))
    header = rel.endswith(".h")
    first: dict[str, int] = {}
    for a, _, cb in sites:
        first.setdefault(cb, a)
    for cb in first:
        if re.search(r"\b" + cb + SUFFIX + r"\b", code):
            return f"the name {cb}{SUFFIX}() of the guard of {cb}() is taken."
    # where each callback's guard goes: before the definition that holds
    # its first registration
    at = {cb: _top_start(new, code, pos) for cb, pos in first.items()}
    order = {cb: n for n, cb in enumerate(first)}
    # every edit at its offset in new, applied from the last: a guard
    # goes before a registration that may lie in an earlier function, and
    # two guards at one place keep the order of their registrations
    edits: list[tuple[int, int, int, str]] = []     # (start, order, end, text)
    for a, b, cb in sites:
        edits.append((a, 0, b, cb + SUFFIX))
    for cb, i in at.items():
        w = wrapper(cb, cb + SUFFIX, header)
        # a conditional line between the guard and its use: the guard
        # may be compiled where the use is not
        if conditional(code[i:first[cb]]):
            w = w.replace(f"void {cb}{SUFFIX}(", f"void __maybe_unused {cb}{SUFFIX}(", 1)
        edits.append((i, order[cb], i, w))
    text = new
    for a, _, b, t in sorted(edits, reverse=True):
        text = text[:a] + t + text[b:]
    guards = []
    for q, o in qs.items():
        text = sub_code(re.compile(r"\b" + q + r"\b"), o, text)
    code_t = mask(text)
    for cb in at:
        at_def = re.search(r"\b" + cb + SUFFIX + r"\(struct work_struct \*work\)", code_t)
        guards.append({"callback": cb, "work_function": cb + SUFFIX,
                       "line": line_of(code_t, at_def.start()) if at_def else 0,
                       "guard": "local_bh_disable", "why": GUARD_WHY})
    return text, sorted(guards, key=lambda g: g["line"])


def movable(group: list[Outcome]) -> bool:
    """Whether thread() would look at the group: every file converted."""
    return bool(group) and all(o.status == Status.CONVERTED for o in group)


def thread(group: list[Outcome], qs: dict[str, str], kept: str = "") -> list[Outcome]:
    """The outcomes of one group for TARGET=thread: each converted file
    moved to qs with its guards; or, when one file cannot be (or kept,
    the reason the pipeline has for it), the whole group as the BH
    conversion wrote it, with the reason (a work item stays on one
    workqueue, so the files that share it move together)."""
    if not movable(group):
        return group
    done: list[Outcome] = []
    for o in group:
        got = kept or file_thread(o.path, o.old, o.new, qs)
        if isinstance(got, str):
            why = got if kept or len(group) == 1 else f"{o.path}: {got}"
            return [replace(x, target="bh", target_why=why) for x in group]
        text, guards = got
        sites = [{**s, "replacement": qs.get(s["replacement"], s["replacement"])}
                 for s in o.sites]
        done.append(replace(o, new=text, guards=guards, sites=sites, target="thread"))
    return done


LATE = "Late draining overflows a buffer or stalls the device here"


def late_note(hp: HotPath) -> str:
    """The note of a moved file whose work loses data when it runs late."""
    return (f"{LATE} ({hp.name}): {hp.overflow} In process context the "
            "work waits behind any real-time task on its CPU, which the softirq run at "
            "interrupt exit did not.")


def late(group: list[Outcome], hot: list[HotPath]) -> list[Outcome]:
    """The group with a note on each file moved to process context whose
    hot path (series/hotpaths.toml) says what late draining loses."""
    out = []
    for o in group:
        hp = next((h for h in hot if h.overflow and h.covers(o.path)), None)
        out.append(replace(o, notes=[*o.notes, late_note(hp)])
                   if hp and o.target == "thread" else o)
    return out
