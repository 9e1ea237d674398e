# SPDX-License-Identifier: GPL-2.0-only
"""A verdict for every call whose replacement is not the same operation.

tasklet_enable, tasklet_kill, tasklet_disable*, tasklet_unlock_wait and
the schedules of an item that is scheduled both ways (hi and normal) each
get, before spatch runs, the call they become and why:

  decided  a person read the driver and wrote the choice down
           (decisions/*.toml, see decisions.py); it wins over everything.
  exact    an analysis with a name proves the replacement does what the
           tasklet call did for this driver:
             teardown         a kill in a function registered as .remove,
                              .ndo_stop, module_exit(), .probe (its error
                              unwind) ..., or reached only from such
                              functions (never by its name), whose callback
                              completes no work a caller waits for
             teardown-flush   the same, but the callback completes work a
                              caller waits for (complete(), a request-done
                              call) and never queues its own item: the
                              pending run is kept (flush, then cancel)
             flush-then-cancel  a kill elsewhere whose callback never
                              queues its own item: flush_work() runs the
                              pending run as tasklet_kill() did, then
                              cancel_work_sync() waits
             never-enabled    a disable of an item no enable re-arms: a
                              pending run would never have run either
             just-set-up      a disable right after the item's init, with
                              nothing between that could queue it
             enable-requeues  a disable whose every enable queues again
                              (tracked or enable_and_queue_work)
             disabled-first   an unlock_wait, or a kill (cancel_work_sync()),
                              after a disable of the item in the same
                              function (for a kill: on every path, no
                              enable between): nothing can be pending
             teardown-wait    an unlock_wait in a teardown function (as for
                              the kills): the pending run flush_work() also
                              waits for is one the tasklet could have run
             enabled-at-init  the one enable, at module init before any
                              queue, of an item declared disabled: the item
                              is declared enabled and the enable goes
                              (convert.verdicts.disabled)
  tracked  an enable: the item gets a flag set where it is queued, cleared
           first in its callback, and tested at enable, which queues only
           when a run was asked for (no lost run, no spurious run). The
           default for an enable nobody decided.

A site none of these covers leaves its file unconverted, with the reason.
The sites and their choices reach the rules through the environment
(env()), one file at a time, keyed by line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...ctext.ptrtypes import Declarations, object_struct
from ...ctext.lex import call_args, function_spans
from ...ctext.tasklet import SITE_CALL_RE, global_tasklet, key
from .analyses import Facts, facts_of
from .scope import shadowed
from . import balance, disabled, percpu, sync
from .decisions import Decision
from ..facts.legacy_local import member_struct
from ...mapping import bh_queue

SYNC_APIS = ("tasklet_kill", "tasklet_disable", "tasklet_disable_nosync",
             "tasklet_disable_in_atomic", "tasklet_unlock_wait")
SCHEDULES = ("tasklet_schedule", "tasklet_hi_schedule")
_DEFINE_RE = re.compile(r"^[ \t]*#[ \t]*define\b(?:[^\n]*\\\n)*[^\n]*", re.M)



@dataclass
class Site:
    path: str
    line: int
    function: str          # "" at file scope (a #define body)
    api: str
    expr: str              # the tasklet argument, as written
    item: str              # its last identifier
    occurrence: int = 1    # among the calls of api on item in function
    in_macro: bool = False
    replacement: str = ""  # what it becomes (its words: series/message.CALLS)
    verdict: str = ""      # exact | tracked | decided; "" for a plain schedule
    analysis: str = ""     # the analysis (exact) or decisions/<file> (decided)
    why: str = ""
    cpu: str = ""          # the CPU of a per-CPU item, for its re-queue
    wq: str = ""           # the workqueue its queue_work() or re-queue uses
    guard: str = ""        # a kill done only when this condition holds
    initialised: str = ""  # why it never runs before the item's init (a decision)
    struct: str = ""       # the struct whose member expr names, when declared in its function

    def record(self) -> dict:
        return {"path": self.path, "line": self.line, "function": self.function,
                "api": self.api, "item": self.item, "replacement": self.replacement,
                "verdict": self.verdict, "analysis": self.analysis, "why": self.why,
                "struct": self.struct}


def find(path: str, code: str) -> list[Site]:
    """Every enable/kill/disable/unlock_wait/schedule call of comment-
    stripped code, with its function and the occurrence among the calls of
    the same API on the same item in that function."""
    funcs = function_spans(code)
    macros = [(m.start(), m.end()) for m in _DEFINE_RE.finditer(code)]
    cache: dict[str, tuple[Declarations, dict[str, dict[str, str]]]] = {}
    seen: dict[tuple[str, str, str], int] = {}
    out = []
    for m in SITE_CALL_RE.finditer(code):
        args = call_args(code, m.end())
        fn = next((n for a, b, n in funcs if a <= m.start() < b), "")
        macro = next((code[a:b] for a, b in macros if a <= m.start() < b), "")
        if macro:           # a site in a #define: named after the macro
            fn = (re.match(r"[ \t]*#[ \t]*define[ \t]+(\w+)", macro) or ["", ""])[1]
        api, expr = m.group(1), args[0] if args else ""
        item = key(expr)
        n = seen[(fn, api, item)] = seen.get((fn, api, item), 0) + 1
        # the struct of a call's object: for the sites that get a verdict of
        # their own (reading it at each of 4000 schedules of one function
        # costs minutes)
        struct = "" if api in SCHEDULES else object_struct(code, m.start(), expr, funcs, cache)
        out.append(Site(path, code.count("\n", 0, m.start()) + 1, fn, api, expr, item, n,
                        bool(macro), struct=struct))
    return out


@dataclass
class Tracked:
    """How the flag of a tracked item is declared and reached."""
    item: str
    kind: str              # member | global
    ctype: str = ""        # the struct that holds the member
    home: str = ""         # the file that declares the global
    callbacks: list[str] = field(default_factory=list)

    @property
    def flag(self) -> str:
        return self.item + "_queued"


@dataclass
class Plan:
    sites: list[Site] = field(default_factory=list)
    tracked: dict[str, Tracked] = field(default_factory=dict)
    refusals: dict[str, str] = field(default_factory=dict)     # file -> reason
    enabled: set[tuple[str, str]] = field(default_factory=set)  # declared disabled, now not

    def mark(self, path: str, text: str) -> tuple[str, list[Site]]:
        """text with each chosen call of path renamed to the marker that
        says what it becomes (MARKERS), for cocci/40-calls.cocci; and the
        sites that could not be marked (the line of the original text does
        not hold the call where the comment-stripped one does)."""
        lines = disabled.mark(text, [i for p, i in self.enabled if p == path]).split("\n")
        missed = []
        todo = sorted((s for s in self.sites if s.path == path and s.replacement
                       and not s.in_macro), key=lambda s: (s.line, s.api))
        by_line: dict[tuple[int, str], list[Site]] = {}
        for s in todo:
            by_line.setdefault((s.line, s.api), []).append(s)
        for (line, api), ss in sorted(by_line.items(), reverse=True):
            ln = lines[line - 1]
            calls = list(re.finditer(r"\b" + api + r"\s*\(", ln))
            if len(calls) != len(ss):
                missed += ss
                continue
            for s, m in reversed(list(zip(ss, calls))):
                head = marker(s, self.tracked.get(s.item))
                if head is None:
                    continue
                ln = ln[:m.start()] + head + ln[m.end():]
            lines[line - 1] = ln
        return "\n".join(lines), missed


# The markers a chosen call is renamed to before spatch (its arguments
# first, then the tasklet's): cocci/40-calls.cocci rewrites each into its
# replacement, so the choice needs no position inside spatch (a position
# is not kept across rules that change the code).
MARKERS = {
    ("tasklet_kill", "cancel_work_sync"): "__detasklet_kill_cancel(",
    ("tasklet_kill", "flush_work"): "__detasklet_kill_flush(",
    ("tasklet_kill", "flush_then_cancel"): "__detasklet_kill_flush_cancel(",
    ("tasklet_kill", "removed"): "__detasklet_kill_removed(",
    ("tasklet_kill", "cancel_work_sync", "guard"): "__detasklet_kill_cancel_if({guard}, ",
    ("tasklet_kill", "flush_work", "guard"): "__detasklet_kill_flush_if({guard}, ",
    ("tasklet_enable", "enable_work"): "__detasklet_enable_work(",
    ("tasklet_enable", "removed"): "__detasklet_enable_removed(",
    ("tasklet_enable", "enable_and_queue_work"): "__detasklet_enable_queue({wq}, ",
    ("tasklet_enable", "enable_and_queue_work", "cpu"): "__detasklet_enable_queue_on({cpu}, {wq}, ",
    ("tasklet_enable", "tracked"): "__detasklet_enable_tracked({flag}, {wq}, ",
    ("tasklet_enable", "tracked", "cpu"): "__detasklet_enable_tracked_on({flag}, {cpu}, {wq}, ",
    ("schedule",): "__detasklet_queue({wq}, ",
    ("schedule", "flag"): "__detasklet_queue_flagged({flag}, {wq}, ",
    ("tasklet_disable_in_atomic", "disable_work_sync"): "__detasklet_disable_sync(",
}


def marker(s: Site, t: Tracked | None) -> str | None:
    """The marker call head for site s ("__detasklet_kill_flush(", ...),
    None for a site whose call keeps its one-for-one rule (the disables,
    but a tasklet_disable_in_atomic() decided to be disable_work_sync())."""
    flag = flag_expr(s.expr, t) if t else ""
    if s.api in SCHEDULES:
        k: tuple[str, ...] = ("schedule", "flag") if flag else ("schedule",)
    elif s.api in ("tasklet_kill", "tasklet_enable"):
        k = (s.api, s.replacement) + (("cpu",) if s.cpu and s.api == "tasklet_enable" else ()) \
            + (("guard",) if s.guard else ())
    elif (s.api, s.replacement) in MARKERS:
        k = (s.api, s.replacement)
    else:
        return None
    return MARKERS[k].format(wq=s.wq or "system_bh_wq", cpu=s.cpu, flag=flag, guard=s.guard)


def flag_expr(expr: str, t: Tracked) -> str:
    """The flag of a tracked item, reached the way expr reaches the item:
    &p->rx_bh -> &p->rx_bh_queued; &rx_bh -> &rx_bh_queued."""
    e = re.sub(r"\s+", " ", expr.strip())
    if t.kind == "global":
        return f"&{t.flag}"
    m = re.fullmatch(r"&\s*(.+?)\s*(->|\.)\s*" + re.escape(t.item), e)
    return f"&{m.group(1)}{m.group(2)}{t.flag}" if m else ""


# ------------------------------------------------------------ the choices

def _decision(s: Site, decisions: list[Decision]) -> Decision | None:
    """The decision for s; a refusal is applied once, first, by plan()."""
    return next((d for d in decisions if d.replacement != "refuse"
                 and d.matches(s.path, s.function, s.api, s.item, s.occurrence)), None)


def _decide(s: Site, d: Decision) -> None:
    s.replacement, s.verdict, s.analysis, s.why, s.cpu, s.guard = (
        d.replacement, "decided", d.source, d.why, d.cpu, d.guard)
    if d.initialised:
        s.initialised = d.initialised
        s.why = f"{d.why} The item is set up before this call: {d.initialised}"


def _tracked(item: str, sites: list[Site], f: Facts) -> tuple[Tracked | None, str]:
    """The tracked form of item, or why it cannot be written."""
    codes = list(f.codes.values())
    ctype = member_struct(codes, item)
    glob = [p for p, c in f.codes.items() if global_tasklet(c, item)]
    if ctype:
        t = Tracked(item, "member", ctype=ctype)
    elif len(glob) == 1:
        t = Tracked(item, "global", home=glob[0])
    else:
        return None, (f"its item {item} is not one member of one struct of the group or "
                      "one global, so its flag has no place")
    cbs = sorted(f.callbacks.get(item, ()))
    if not cbs or any(cb not in f.bodies for cb in cbs):
        return None, f"the callback of {item} is not defined in the files of the group"
    t.callbacks = cbs
    for s in sites:
        if s.item != item or s.api not in ("tasklet_enable",) + SCHEDULES:
            continue
        if s.in_macro:
            return None, (f"{s.api}() of {item} at line {s.line} of {s.path} is inside a "
                          "macro, where the flag cannot be set")
        if not flag_expr(s.expr, t):
            return None, (f"{s.api}({s.expr}) at line {s.line} of {s.path} does not name "
                          f"the item as &x->{item} or &x.{item}")
    taken = re.compile(r"\b" + re.escape(t.flag) + r"\b")
    if any(taken.search(c) for c in codes):
        return None, f"the name {t.flag} for its flag is taken"
    return t, ""


def plan(codes: dict[str, str], decisions: list[Decision], hi_keys: set[str],
         module: dict[str, str] | None = None,
         mates: dict[str, str] | None = None, *,
         types: dict[str, dict[str, str]] | None = None) -> Plan:
    """The choice for every site of a group (comment-stripped codes), in
    passes, each a function of its own: a person's refusals (the group
    then stays as it is), the schedules of the items queued both ways, the
    enables, the tracked form of their items, the sync calls (sync.py),
    and the workqueue of each queued site. A refusal is kept per file, the
    first one found. module: the masked codes of the other files of the
    group's kbuild modules (convert.facts.module_reach), read, not changed;
    mates: each .c file -> its kbuild module ('folder:module'); types: the
    members of the structs its headers define (ctext.ptrtypes.included)."""
    f = facts_of(codes, module, types=types)
    f.mates = mates or {}
    # a site in a function of a name another file also defines (two static
    # functions, each its file's) is read with its own file's functions
    twins = shadowed(codes)
    own: dict[str, Facts] = {}

    def facts_for(s: Site) -> Facts:
        if s.path not in twins.get(s.function, set()):
            return f
        if s.path not in own:
            own[s.path] = facts_of({s.path: codes[s.path], **codes}, module, types=types)
            own[s.path].mates = f.mates
        return own[s.path]
    p = Plan([s for path, code in codes.items() for s in find(path, code)])
    if refused_by_decision(p, decisions):     # the group stays as it is: nothing to choose
        return p
    by_item: dict[str, list[Site]] = {}
    for s in p.sites:
        by_item.setdefault(s.item, []).append(s)
    merged = both_ways(p, by_item, hi_keys, decisions)
    choose_enables(p, codes, decisions, f)
    track(p, by_item, f, merged)
    enables = {i: [s for s in ss if s.api == "tasklet_enable"] for i, ss in by_item.items()}
    for s in p.sites:
        if s.api not in SYNC_APIS:
            continue
        d = _decision(s, decisions)
        if d:
            _decide(s, d)
            continue
        why = sync.choose(s, p.sites, facts_for(s), enables, codes[s.path])
        if why:
            refuse(p, s, why)
    set_queues(p, hi_keys)
    return p


def refuse(p: Plan, s: Site, why: str) -> None:
    """s's file refused for why, unless an earlier site refused it."""
    p.refusals.setdefault(s.path, f"{s.api}() at line {s.line}"
                          + (f" in {s.function}()" if s.function else "") + f": {why}")


def refused_by_decision(p: Plan, decisions: list[Decision]) -> bool:
    """Whether a person decided no rewrite is right at some site of p (its
    file refused with the decision's reason)."""
    refused = []
    for s in p.sites:
        d = next((d for d in decisions if d.replacement == "refuse" and d.matches(
            s.path, s.function, s.api, s.item, s.occurrence)), None)
        if d:
            p.refusals.setdefault(s.path, f"{s.api}() in {s.function}(): {d.why} "
                                          f"({d.source})")
            refused.append(s)
    return bool(refused)


def both_ways(p: Plan, by_item: dict[str, list[Site]], hi_keys: set[str],
              decisions: list[Decision]) -> set[str]:
    """The items queued both ways (hi and normal): one workqueue per item,
    so their normal schedules follow the hi ones where a decision says so,
    and are refused otherwise. The items, for their flag's queue."""
    merged = {i for i, ss in by_item.items()
              if {s.api for s in ss} >= set(SCHEDULES) or
              i in hi_keys and any(s.api == "tasklet_schedule" for s in ss)}
    for s in p.sites:
        if s.api == "tasklet_schedule" and s.item in merged:
            d = _decision(s, decisions) or next(
                (d for t in by_item[s.item] if (d := _decision(t, decisions))
                 and d.replacement == "system_bh_highpri_wq"), None)
            if d is None:
                refuse(p, s, f"{s.item} is also queued with tasklet_hi_schedule(): one work "
                             "item must stay on one workqueue, and whether this site may move "
                             "to system_bh_highpri_wq (or keep its own queue because the two "
                             "never apply to the same item) is a decision for this driver")
                continue
            _decide(s, d)
            if d.replacement == "own":
                if s.in_macro:
                    refuse(p, s, f"a decision keeps this site of {s.item} on its own queue, "
                                 "but the call is inside a macro, which is rewritten by name")
                    continue
                s.replacement = "system_bh_wq"
    return merged


def choose_enables(p: Plan, codes: dict[str, str], decisions: list[Decision], f: Facts) -> None:
    """Each enable: a decision, the one enable at init of an item declared
    disabled (disabled.py), or the tracked form, unless its function has a
    path without the disable (balance.py) or its per-CPU item's CPU is not
    known (percpu.py)."""
    p.enabled, why_not = disabled.plan(p.sites, codes, f)
    for path, why in why_not.items():
        p.refusals.setdefault(path, why)
    for s in p.sites:
        if s.api != "tasklet_enable" or s.analysis == "enabled-at-init":
            continue
        d = _decision(s, decisions)
        if d:
            _decide(s, d)
            continue
        s.replacement, s.verdict = "tracked", "tracked"
        s.why = ("no decision for this enable: the tracked form queues the item again "
                 "only if a run was asked for while it was disabled, as "
                 "tasklet_enable() did")
        why = balance.why_unbalanced(codes[s.path], s.line, s.item) or percpu.place(
            s, codes, member_struct(list(codes.values()), s.item))
        if why:
            refuse(p, s, why)
            s.replacement = s.verdict = ""


def track(p: Plan, by_item: dict[str, list[Site]], f: Facts, merged: set[str]) -> None:
    """The flag of each item with a tracked enable (p.tracked), or its
    enables refused when the flag cannot be written; the schedules of a
    tracked item set the flag where it is queued."""
    for item, ss in sorted(by_item.items()):
        if any(s.replacement == "tracked" for s in ss):
            t, why = _tracked(item, p.sites, f)
            if t is None:
                for s in ss:
                    if s.replacement == "tracked":
                        refuse(p, s, "no decision for this enable, and the tracked enable "
                                     f"cannot be written: {why}")
                        s.replacement = s.verdict = ""
            else:
                p.tracked[item] = t
    for s in p.sites:
        if s.item in p.tracked and s.api in SCHEDULES and not s.replacement:
            s.replacement = "system_bh_highpri_wq" if (
                s.api == "tasklet_hi_schedule" or s.item in merged) else "system_bh_wq"


def set_queues(p: Plan, hi_keys: set[str]) -> None:
    """The workqueue of each site that queues: a schedule's replacement, an
    enable's item's BH queue (mapping.bh_queue)."""
    hi = hi_keys | {s.item for s in p.sites if s.api == "tasklet_hi_schedule"}
    for s in p.sites:
        if s.api in SCHEDULES and s.replacement:
            s.wq = s.replacement
        elif s.api == "tasklet_enable" and s.replacement:
            s.wq = bh_queue(s.item, hi)
