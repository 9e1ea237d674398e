# SPDX-License-Identifier: GPL-2.0-only
"""The other functions that queue an item at its kill (convert.verdicts.kills).

flush_work() then cancel_work_sync() is tasklet_kill() only if nothing
queues the item between the two: a queue that comes after the flushed
run and before cancel_work_sync() is dropped, where tasklet_kill() had
returned and let it run. The run's own re-queue is read by the kill
analysis; this reads every other function of the group (and of the
module files it reaches) that queues the item, and where each is entered
from. Such a queue cannot come at the kill when each way into it is a
static function registered only to an event (an interrupt, a timer, a
tasklet or work item, a URB: ctext.pointers EVENT_CALLS) whose end is
called before the kill: in the kill's function before it, or, when that
function is static and called only by name, before the call in every
caller (free_irq() for a request_irq(), del_timer_sync() for a timer,
usb_kill_urb() for a URB, ...; matched by the kind of event, not by the
IRQ number or the timer). The kill's own function and its callers are
the kill's thread: a queue there comes before or after it, as with the
tasklet. Anything else (not static, stored in an ops table, no end
before the kill) may queue the item at the kill.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...ctext.lex import function_spans, line_start
from ...ctext.pointers import EVENT_CALLS, address_taken
from ...ctext.ptrtypes import schedule_structs
from .analyses import Facts, reached
from .outside import queues_item

# the kind of event of each registration, and the calls that end one
# (waiting for a handler or callback that runs): an interrupt ends the way
# it was requested, free_irq() for request_irq(), devm_free_irq() for
# devm_request_irq() (pci_free_irq() ends only a pci_request_irq(), which
# is no event registration here), or disable_irq() for either
_KIND = {**{c: "irq" for c in ("request_irq", "request_threaded_irq", "request_any_context_irq")},
         **{c: "devm_irq" for c in ("devm_request_irq", "devm_request_threaded_irq",
                                    "devm_request_any_context_irq")},
         "request_percpu_irq": "percpu_irq", "request_nmi": "nmi",
         "timer_setup": "timer", "hrtimer_setup": "hrtimer", "hrtimer_setup_on_stack": "hrtimer",
         **{c: "tasklet" for c in ("tasklet_setup", "tasklet_init", "DECLARE_TASKLET",
                                   "DECLARE_TASKLET_OLD", "DECLARE_TASKLET_DISABLED",
                                   "DECLARE_TASKLET_DISABLED_OLD")},
         "INIT_WORK": "work", "DECLARE_WORK": "work",
         "INIT_DELAYED_WORK": "dwork", "DECLARE_DELAYED_WORK": "dwork",
         **{c: "urb" for c in ("usb_fill_bulk_urb", "usb_fill_int_urb", "usb_fill_control_urb")}}
_ENDS = {"irq": ("free_irq", "disable_irq"), "devm_irq": ("devm_free_irq", "disable_irq"),
         "percpu_irq": ("free_percpu_irq",), "nmi": ("free_nmi",),
         "timer": ("del_timer_sync", "timer_delete_sync", "timer_shutdown_sync"),
         "hrtimer": ("hrtimer_cancel",), "tasklet": ("tasklet_kill",),
         "work": ("cancel_work_sync",), "dwork": ("cancel_delayed_work_sync",),
         "urb": ("usb_kill_urb", "usb_kill_anchored_urbs", "usb_poison_urb",
                 "usb_poison_anchored_urbs")}
_END_RE = re.compile(r"\b(" + "|".join(sorted({e for es in _ENDS.values() for e in es}))
                     + r")\s*\(")


@dataclass(frozen=True)
class Queuer:
    fn: str        # the function that queues the item
    entry: str     # where it is entered from (fn itself, or a function calling it)
    how: str       # "not static", "stored in ndo_start_xmit", "passed to request_irq()" ...
    ended: str     # the call before the kill that ends its event ("" when none)
    at_kill: bool  # a queue through it may come at the kill


def _ancestors(fn: str, f: Facts) -> set[str]:
    out, todo = set(), [fn]
    while todo:
        g = todo.pop()
        if g not in out:
            out.add(g)
            todo += sorted(f.callers.get(g, ()))
    return out


def _ends_before(fn: str, text: str, f: Facts, seen: frozenset[str] = frozenset()) -> set[str]:
    """The ends of events (_ENDS) called before the kill: in text (fn's
    body up to it), and, when fn is static, named only by calls and called
    by functions of the group, in every caller before its first call."""
    ends = set(_END_RE.findall(text))
    callers = sorted(f.callers.get(fn, ()))
    if fn in seen or fn not in f.static or fn in f.referenced or not callers:
        return ends
    common: set[str] | None = None
    for c in callers:
        body = f.bodies.get(c, "")
        m = re.search(r"\b" + re.escape(fn) + r"\s*\(", body)
        got = _ends_before(c, body[:m.start()] if m else body, f, seen | {fn})
        common = got if common is None else common & got
    return ends | (common or set())


def _kill_text(path: str, function: str, line: int, f: Facts) -> str:
    """The text of function in path up to the start of line."""
    code = f.codes.get(path, "")
    start = next((a for a, b, n in function_spans(code) if n == function), -1)
    if start < 0:
        return ""
    return code[start:max(line_start(code, line), start)]


def _handed(fn: str, f: Facts) -> list[str]:
    out: list[str] = []
    for code in list(f.codes.values()) + list(f.module.values()):
        if fn in code:
            out += [w for w in address_taken(code, fn) if w not in out]
    return out


def _way(w: str) -> str:
    """The words for a place fn's address is handed on (address_taken)."""
    if w.startswith("stored in "):
        return f"its address is {w}"
    if w.startswith("passed to "):
        return f"its address is {w}"
    return "its address is taken"


def _entry(g: str, q: str, ends: set[str], f: Facts) -> Queuer | None:
    """Queuer for entry g of q: at_kill when a queue through it may come
    at the kill (how says why), else (g's every way in is an event ended
    before it) with the ends; None when g is entered only through its
    callers, which are entries in turn."""
    if g not in f.bodies:
        return Queuer(q, g, "it is not in the files read", "", True)
    if g not in f.static:
        return Queuer(q, g, "it is not static", "", True)
    handed = _handed(g, f)
    if not handed and not f.callers.get(g):
        if any(re.search(r"^[ \t]*#[ \t]*define\b(?:[^\n]*\\\n)*[^\n]*\b" + re.escape(g) + r"\b",
                         c, re.M) for c in f.codes.values()):
            return Queuer(q, g, "a macro names it", "", True)
        return Queuer(q, g, "", "", False)      # static, never called, address never taken
    if not handed:
        return None
    hows, hits = [], []
    for w in handed:
        call = w.removeprefix("passed to ").removesuffix("()")
        if not w.startswith("passed to ") or call not in EVENT_CALLS or call not in _KIND:
            return Queuer(q, g, _way(w), "", True)
        hit = next((e for e in _ENDS[_KIND[call]] if e in ends), "")
        if not hit:
            ends_ = [e + "()" for e in _ENDS[_KIND[call]]]
            named = ends_[0] if len(ends_) == 1 else ", ".join(ends_[:-1]) + " or " + ends_[-1]
            return Queuer(q, g, f"it is registered by {call}() and no {named} comes before "
                          "the kill", "", True)
        hows.append(f"{call}()")
        hits.append(f"{hit}()")
    if f.callers.get(g):        # called by name too: its callers are entries as well
        return None
    return Queuer(q, g, " and ".join(dict.fromkeys(hows)), " and ".join(dict.fromkeys(hits)),
                  False)


def same_struct(fn: str, item: str, struct: str, f: Facts) -> bool:
    """Whether fn may queue the kill's item, a member of struct: no when
    each of its queues of item names that member of another struct
    (irdma: irdma_irq_handler() queues struct irdma_pci_f's dpc_tasklet,
    not struct irdma_ceq's)."""
    home = f.homes.get(fn, "")
    code = f.codes.get(home) or f.module.get(home, "")
    if not struct or not code:
        return True
    tags = schedule_structs(code, fn, item)
    return "" in tags or struct in tags


def others(item: str, path: str, function: str, line: int, f: Facts,
           struct: str = "") -> list[Queuer]:
    """The ways into the functions other than the run of item (and the
    kill's own thread) that queue item, for the kill in function of path
    at line: each at_kill when a queue through it may come at the kill.
    struct: the kill's object's, when known (a queue of the member of
    another struct is not one)."""
    run = {fn for _, fn in reached(item, f)}
    mine = _ancestors(function, f)
    ends = _ends_before(function, _kill_text(path, function, line, f), f)
    # a .c file of another kbuild module of the group (another driver
    # sharing the struct of the item) works on its own instances
    mod = f.mates.get(path, "")
    out: list[Queuer] = []
    for q in sorted(fn for fn, body in f.bodies.items()
                    if fn not in run and fn not in mine and queues_item(fn, body, item, f)
                    and same_struct(fn, item, struct, f)):
        todo, seen = [q], set()
        while todo:
            g = todo.pop()
            home = f.homes.get(g, "")
            if g in seen or g in mine or g in run or mod and f.mates.get(home, mod) != mod:
                continue
            seen.add(g)
            hit = _entry(g, q, ends, f)
            if hit and hit not in out:
                out.append(hit)
            if hit and hit.at_kill:
                break
            if not hit:
                todo += sorted(f.callers.get(g, ()))
    return out


def words(qs: list[Queuer]) -> str:
    """"foo_irq() (request_irq(), ended by free_irq() before it)", for the
    sentence of a kill whose other queuers are all ended."""
    out = []
    for q in qs:
        via = f", entered from {q.entry}()" if q.entry != q.fn else ""
        out.append(f"{q.fn}(){via} ({q.how}, ended by {q.ended} before it)" if q.ended else
                   f"{q.fn}(){via} (static, never called: no call names it and its address "
                   "is never taken)")
    return "; ".join(out)
