# SPDX-License-Identifier: GPL-2.0-only
"""The replacement of a tasklet_kill() site, and why (convert.verdicts.sites).

A kill is exact when the analyses prove it: in a teardown function
(analyses.teardown), cancel_work_sync() when the run it drops completes
nothing a caller waits for, flush_work() then cancel_work_sync() when it
does and never queues its item again; elsewhere flush then cancel when
the run never queues its item again. What a run does is read from its
callbacks and the functions of the group they reach, directly or through
a pointer member the group sets to functions of its own; a call through a
pointer the group never sets is named in the sentence (analyses.unresolved).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..facts.legacy_local import member_struct
from . import balance, outside, queuers
from .scope import helper
from .analyses import (Facts, completes, direct, reached, requeues_itself, stopped_before,
                       teardown, through_pointers, unresolved)

if TYPE_CHECKING:
    from .sites import Site


def _goes(how: str, kind: str) -> str:
    """What a registration takes down, for the teardown sentence: ": the
    device is unbound there"; "" for a helper, whose how already says, per
    caller, what it is and when it calls (analyses.teardown())."""
    if helper(how):
        return ""
    if kind == "start":
        return ": the kill there undoes the start callback's own set-up when a later step fails"
    if kind == "down":
        return ": the interface goes down there"
    if "module" in how:
        return ": the module is unloaded there"
    end = "system shuts down" if ".shutdown" in how else "device is unbound"
    return f": the {end} there"


def disabled_kill(s: Site, code: str) -> bool:
    """A kill that a disable of its item reaches on every path of its
    function, with no enable between (convert.verdicts.balance.disable_before):
    disable_work*() already dropped a pending run and keeps new ones out,
    so cancel_work_sync() is left only a running callback to wait for, as
    tasklet_kill() waited for it; a flush would have nothing to run. After
    a disable that also waited for a running callback (tasklet_disable(),
    tasklet_disable_in_atomic()), the kill has nothing left to do and is
    removed. Chosen here (verdict exact, analysis disabled-first); False
    when no such disable is there."""
    api = balance.disable_before(code, s.line, s.item)
    if not api:
        return False
    waited = api == "tasklet_disable" or api == "tasklet_disable_in_atomic"
    if waited:
        # disable_work_sync() (or the wait after disable_work()) cancelled
        # and waited: a cancel after it would do nothing, so the call goes
        s.replacement, s.verdict, s.analysis = "removed", "exact", "disabled-first"
        s.why = (f"the {api}() of {s.item} before it in {s.function}() has already "
                 "dropped a pending run, waited for a running one and keeps the item from "
                 "being queued again, so a cancel_work_sync() here would have nothing to "
                 "do; tasklet_kill() of a disabled tasklet with a run still pending would "
                 "have waited for it forever")
        return True
    s.replacement, s.verdict, s.analysis = "cancel_work_sync", "exact", "disabled-first"
    s.why = (f"the {api}() of {s.item} before it in {s.function}() dropped a pending run "
             "and keeps the item from being queued again"
             + (" (and waited for a running one)" if waited else "")
             + ", so cancel_work_sync() has at most a running callback to wait for; "
             "tasklet_kill() of a disabled tasklet with a run still pending would have "
             "waited for it forever")
    return True


def kill(s: Site, f: Facts) -> str:
    """Choose the replacement of a tasklet_kill() site; the reason it is
    refused, "" when a replacement was chosen. Every exact kill rests on
    what the callback's run reaches (it completes nothing, or never queues
    its item again). A call through a pointer the group never sets (to
    functions of its own) is not read: the kill stays exact only when no
    function of the group that queues the item can be called from outside
    the group (convert.verdicts.outside), and its sentence says what was checked;
    otherwise it is refused, naming the call and the function. A flush kill
    that another function may queue at (queuers.others(), not shown stopped
    before it) is refused for a decision too (_live())."""
    why = _kill(s, f)
    # a run that may queue its item again through code outside the group
    # is the stronger reason than another queuer left live (_live())
    blind = unresolved(s.item, f) if s.verdict == "exact" or why.endswith(_LIVE_END) else ""
    if not blind:
        return why
    found = outside.entries(s.item, f)
    if not found and why:
        return why
    if found:
        e = found[0]
        s.replacement = s.verdict = s.analysis = s.why = ""
        via = f" (through {e.queues}())" if e.queues != e.fn else ""
        how = ("a function no file read defines (another module's: code outside these files)"
               if direct(blind.partition("()")[0]) else
               "through a pointer that may run code outside these files")
        return (f"the run of {s.item} calls {blind}, {how}; "
                f"{e.fn}() ({e.how}) can be "
                f"called from outside the group and queues {s.item}{via}: if the call "
                f"reaches it, tasklet_kill() waited for the run queued again, flush_work() "
                "waits for one run only; a decision for the driver")
    s.why = (s.why.removesuffix(SETTLED) + "; " + _no_entry(s.item, blind, f, s.struct)
             + (SETTLED if s.why.endswith(SETTLED) else ""))
    return why


# the end of an exact flush kill's sentence when nothing can queue its item
# again: flush_work() alone is tasklet_kill() (a cancel_work_sync() after it
# would have nothing to do, which maintainers asked to drop)
SETTLED = ", so nothing queues it again after flush_work(), and no cancel_work_sync() is needed"


def _no_entry(item: str, blind: str, f: Facts, struct: str = "") -> str:
    """The clause of an exact kill whose run calls through a pointer the
    group never sets: why that call cannot queue item again. A member item
    is named with its struct (the site's, else the one struct of the group
    that declares it): the group holds every file that names that member,
    not every file with a member of the same name (aspeed-acry.c's own
    done_task beside aspeed-hace's)."""
    struct = struct or member_struct(list(f.codes.values()), item)
    named = f"the {item} member of {struct}" if struct else item
    call, _, fn = blind.partition(" in ")
    qs = sorted(q for q in outside.queuers(item, f) if queuers.same_struct(q, item, struct, f))
    one = len(qs) == 1
    # one queuer: "usb_fill_bulk_urb()", not "usb_fill_bulk_urb() (its name)"
    regs = [r.split(" (")[0] if one else r for r in outside.registered(qs, f)]
    said = (f"the {'one function' if one else 'functions'} here that "
            f"{'queues' if one else 'queue'} it ({listed(qs, item)}) {'is' if one else 'are'} "
            "static and "
            + (f"only handed to {' and '.join(regs)}, to run on an event"
               if regs else f"{'its address is' if one else 'their addresses are'} "
               "taken nowhere")
            if qs else f"no function here queues {item}")
    how = "a function of another module" if direct(call[:-2]) else "a call through a pointer"
    return f"nor can {call} in {fn} ({how}): {named} is named in no other file, and {said}"


def _reach(item: str, f: Facts) -> str:
    """The words for what the kill analysis read of item's run: its
    callbacks and the functions of the group they call, with the pointer
    calls it followed."""
    names = sorted(f.callbacks.get(item, ()))
    # "a(), b() and the functions they call" (qtnfmac's two callbacks)
    fns = ", ".join(f"{n}()" for n in names) or f"the callback of {item}"
    return (f"{fns} and "
            f"{_calls(item, f, 'it calls' if len(names) <= 1 else 'they call')}"
            + _pointers(item, f))


def _calls(item: str, f: Facts, verb: str = "it calls") -> str:
    """"the functions it calls in this driver", and, when the run goes on
    into other files of its kbuild module, ", in foo_reqmgr.c too"."""
    other = sorted({f.homes[fn].rpartition("/")[2] for _, fn in reached(item, f)
                    if f.homes.get(fn, "") in f.module})
    if not other:
        return f"the functions {verb} in this driver"
    if len(other) > 3:      # irdma's 12 files: a count, not a list
        return f"the functions {verb} in this driver, in {len(other)} more of its files too"
    names = other[0] if len(other) == 1 else ", ".join(other[:-1]) + " and " + other[-1]
    return f"the functions {verb} in this driver, in {names} too"


def _pointers(item: str, f: Facts) -> str:
    """" (directly, and through e->ops->kick(), set to foo_kick())" when
    the reach followed a pointer call; "" when it followed none."""
    ptrs = through_pointers(item, f)
    if len(ptrs) > 2:       # irdma's eight: the calls, not what each may hold
        calls = [p.partition(",")[0] for p in ptrs]
        return (f" (directly, and through the function pointers {', '.join(calls[:-1])} "
                f"and {calls[-1]})")
    return f" (directly, and through {'; '.join(ptrs)})" if ptrs else ""


def _kill(s: Site, f: Facts) -> str:
    """kill() on what the reach of the item's run shows."""
    reg = teardown(s.function, f)
    again = requeues_itself(s.item, f)
    done_cb, call = completes(s.item, f)
    # a running callback is one of them: qtnfmac's two (pearl, topaz)
    cbs = " or ".join(listed(sorted(f.callbacks.get(s.item, ())), s.item).rsplit(" and ", 1))
    reach = _reach(s.item, f)
    if reg:
        stop = stopped_before(s, f)
        where = f"{s.function}() is {reg.how}" + (f", after {stop}" if stop else "")
        if not call:
            s.replacement, s.verdict, s.analysis = "cancel_work_sync", "exact", "teardown"
            s.why = (f"{where}{_goes(reg.how, reg.kind)}. cancel_work_sync() waits for a running "
                     f"{cbs} as tasklet_kill() did and drops a pending run; {reach} wake no "
                     "waiter and complete no request, so nothing waits for the dropped run")
            return ""
        if again:
            return (f"{where}, but {done_cb}() can complete work a caller waits for ({call}) and "
                    f"queues {s.item} again: dropping its pending run can leave that caller "
                    "waiting, and flush_work() waits for one run only; a decision for the "
                    "driver")
        qs = queuers.others(s.item, s.path, s.function, s.line, f, s.struct)
        if not _settled(qs):
            return _live(qs, s)
        s.replacement, s.verdict, s.analysis = "flush_work", "exact", "teardown-flush"
        # flush then cancel is tasklet_kill() wherever it is: the callers
        # that made it teardown are no reason of the choice
        s.why = ((f"{stop} comes before it, and a" if stop else "A")
                 + f" pending run of {done_cb}() can complete work a caller waits "
                 f"for ({call}): flush_work() lets it run and waits, as tasklet_kill() did"
                 f"; {done_cb}() never queues {s.item} itself, nor do {_calls(s.item, f)}"
                 f"{_pointers(s.item, f)}" + _others(qs, s.item))
        return ""
    unproven = (f"{s.function}() is not proven a teardown path (neither it nor every "
                "caller of it is registered as .remove, .ndo_stop, module_exit() or a "
                "like callback)")
    if again:
        return (f"{unproven}, and its callback {again}() queues {s.item} again: "
                "tasklet_kill() waits for those runs, flush_work() only for one; this needs "
                "a decision for the driver")
    qs = queuers.others(s.item, s.path, s.function, s.line, f, s.struct)
    if not _settled(qs):
        return _live(qs, s)
    s.replacement, s.verdict, s.analysis = "flush_work", "exact", "flush-then-cancel"
    names = sorted(f.callbacks.get(s.item, ()))
    one = len(names) <= 1
    s.why = (f"flush_work() lets a pending run of {listed(names, s.item)} happen and waits "
             "for it, as tasklet_kill() did"
             f": {listed(names, s.item)} never {'queues' if one else 'queue'} "
             f"{s.item} {'itself' if one else 'themselves'}, nor do "
             f"{_calls(s.item, f, 'it calls' if one else 'they call')}{_pointers(s.item, f)}"
             + _others(qs, s.item))
    return ""


def _live(qs: list[queuers.Queuer], s: Site) -> str:
    """Why a kill is refused while another function may queue its item at
    the kill (q.at_kill): tasklet_kill() ran a run queued before it took
    the tasklet and dropped one queued while it held it; flush_work() then
    cancel_work_sync() drop one queued after the flush. Which of those
    runs the driver can lose is its own question: a decision answers it."""
    live = [q for q in qs if q.at_kill]
    return (f"{listed([q.fn for q in live], s.item)} may also queue {s.item} at the kill in "
            f"{s.function}() (" + "; ".join(f"{q.fn}(): {q.how}" for q in live) + "): "
            "flush_work() then cancel_work_sync() drops a run queued after the flush, "
            "which tasklet_kill() may have let run; " + _LIVE_END)


_LIVE_END = "a decision for the driver says whether that run can be lost"


def _settled(qs: list[queuers.Queuer]) -> bool:
    """Whether every other function that queues the item (qs,
    queuers.others()) is shown stopped before the kill (the callback never
    queues it itself, checked before): nothing queues it after
    flush_work()."""
    return not any(q.at_kill for q in qs)


def _others(qs: list[queuers.Queuer], item: str) -> str:
    """The clause on the other functions that queue item (qs,
    queuers.others(), every one shown stopped before the kill: a live one
    refuses the kill first, _live()): those that cannot run at the kill,
    or that there are none; then SETTLED."""
    out = ""
    if qs:
        one = len(qs) == 1
        out += (f"; {'the other function' if one else 'the other functions'} queueing it "
                f"cannot run at the kill: {queuers.words(qs)}")
    else:
        out += f"; no other function queues {item}"
    return out + SETTLED


def listed(names: list[str], item: str) -> str:
    """'a()', 'a() and b()', 'a(), b() and c()'; the callback of item
    when none is known."""
    fns = [f"{n}()" for n in names] or [f"the callback of {item}"]
    return fns[0] if len(fns) == 1 else ", ".join(fns[:-1]) + " and " + fns[-1]
