# SPDX-License-Identifier: GPL-2.0-only
"""The named analyses of a group's sync calls, on its masked code.

A kill or disable needs, to be proven exact, what the driver does around
it: the functions and who calls them (facts_of), whether a function takes
the device or module down (teardown: a registration slot, its name, or
being called only from such functions), the error unwind of a start path
(unwind), what was stopped before the call (stopped_before: free_irq(),
del_timer_sync(), ...), and whether a callback queues its own item again
(requeues_itself). convert.sites chooses with them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..ctext.lex import call_args, function_spans
from ..ctext.tasklet import key

if TYPE_CHECKING:
    from .sites import Site

_INIT_RE = re.compile(r"\b(?:tasklet_setup|tasklet_init)\s*\(")
_DECLARE_RE = re.compile(r"\bDECLARE_TASKLET\w*\s*\(\s*(\w+)\s*,\s*(\w+)")
_CALLED_RE = re.compile(r"(\w+)\s*\(")

# Teardown: the names, registration slots and calls that say a function
# takes the device (or the module) down, and the words that say it does
# not (the device lives on after it).
_DOWN_WORDS = (r"remove|exit|destroy|teardown|cleanup|release|free|uninit|deinit|unload|"
               r"shutdown|detach|disconnect|stop|close|unregister|fini|dealloc|unbind|"
               r"delete|del|term|down|dtor|kill")
_DOWN_NAME_RE = re.compile(r"(?:^|_)(?:" + _DOWN_WORDS + r")(?:_|\d*$)")
_LIVE_NAME_RE = re.compile(r"suspend|resume|reset|pause|flush|sync|recover|restart|freeze|"
                           r"thaw|quiesce|halt|reconfig|reinit|update|change")
_SLOT_RE = re.compile(r"\.(remove|remove_new|remove_one|shutdown|ndo_stop|ndo_uninit|release|"
                      r"disconnect|stop|close|detach|unbind|destroy|teardown|cleanup|exit|"
                      r"device_free|port_remove|free)\s*=\s*(\w+)\s*[,;}]")
_EXIT_RE = re.compile(r"\bmodule_exit\s*\(\s*(\w+)\s*\)|"
                      r"\bdevm_add_action(?:_or_reset)?\s*\([^,;]+,\s*(?:\([^)]*\)\s*)?(\w+)\s*,")
_UP_NAME_RE = re.compile(r"probe|init|open|start|attach|setup|create|add|register|alloc|"
                         r"load|bind|connect|enable|(?:^|_)up(?:_|$)")
_STOP_RE = re.compile(r"\b(free_irq|devm_free_irq|synchronize_irq|disable_irq|"
                      r"disable_irq_nosync|pci_free_irq_vectors|pci_free_irq|"
                      r"del_timer_sync|timer_delete_sync|timer_shutdown_sync|hrtimer_cancel|"
                      r"napi_disable|usb_kill_urb|usb_kill_anchored_urbs|usb_poison_urb|"
                      r"free_netdev|unregister_netdev|kfree)\s*\(")


@dataclass
class Facts:
    bodies: dict[str, str]                  # function -> body (first definition)
    callers: dict[str, set[str]]            # function -> the functions calling it
    callees: dict[str, set[str]]
    callbacks: dict[str, set[str]]          # item -> its callbacks
    slots: dict[str, str]                   # function -> how it is registered
    codes: dict[str, str]


def facts_of(codes: dict[str, str]) -> Facts:
    bodies: dict[str, str] = {}
    for code in codes.values():
        for a, b, n in function_spans(code):
            bodies.setdefault(n, code[a:b])
    callees = {n: {c for c in _CALLED_RE.findall(b) if c in bodies and c != n}
               for n, b in bodies.items()}
    callers: dict[str, set[str]] = {n: set() for n in bodies}
    for n, cs in callees.items():
        for c in cs:
            callers[c].add(n)
    cbs: dict[str, set[str]] = {}
    slots: dict[str, str] = {}
    for code in codes.values():
        for m in _INIT_RE.finditer(code):
            args = call_args(code, m.end())
            if len(args) >= 2:
                cb = re.sub(r"^\(\s*void\s*\*\s*\)\s*", "", args[1])
                if re.fullmatch(r"\w+", cb):
                    cbs.setdefault(key(args[0]), set()).add(cb)
        for m in _DECLARE_RE.finditer(code):
            cbs.setdefault(m.group(1), set()).add(m.group(2))
        for m in _SLOT_RE.finditer(code):
            slots.setdefault(m.group(2), f"registered as .{m.group(1)}")
        for m in _EXIT_RE.finditer(code):
            if m.group(1):
                slots.setdefault(m.group(1), "the module's exit")
            else:
                slots.setdefault(m.group(2), "a devm action, run when the device goes")
    return Facts(bodies, callers, callees, cbs, slots, codes)


def teardown(fn: str, f: Facts, seen: frozenset[str] = frozenset()) -> str:
    """How fn takes the device or module down ("" when it does not): a
    registration, its name, or being called only from such functions."""
    if not fn or fn in seen:
        return ""
    if fn in f.slots:
        return f.slots[fn]
    live = _LIVE_NAME_RE.search(fn)
    if not live and _DOWN_NAME_RE.search(fn):
        return "named as a teardown path"
    callers = f.callers.get(fn, set())
    if callers:
        hows = [teardown(c, f, seen | {fn}) for c in sorted(callers)]
        if all(hows):
            return "called only from teardown paths: " + ", ".join(
                f"{c}()" for c in sorted(callers))
    return ""


def unwind(site: Site, f: Facts) -> str:
    """The error unwind of a start path (probe, open, init, register): a
    start path kills or disables its item only to undo its own set-up when
    a later step fails. "" for other functions."""
    if not site.function or not _UP_NAME_RE.search(site.function) \
            or _LIVE_NAME_RE.search(site.function) or site.function not in f.bodies:
        return ""
    return f"the error unwind of {site.function}()"


def _line_pos(code: str, line: int) -> int:
    pos = 0
    for _ in range(line - 1):
        pos = code.index("\n", pos) + 1
    return pos


def stopped_before(site: Site, f: Facts) -> str:
    """The call before the site, in its function, that stops what queues
    the item or frees what it works on (free_irq(), del_timer_sync(), ...)."""
    code = f.codes[site.path]
    start = next((a for a, b, n in function_spans(code) if n == site.function), -1)
    if start < 0:
        return ""
    before = code[start:_line_pos(code, site.line)]
    hits = [(m.group(1), before.count("\n", 0, m.start())) for m in _STOP_RE.finditer(before)
            if m.group(1) != "kfree"]
    if not hits:
        return ""
    return f"{hits[-1][0]}()"


def requeues_itself(item: str, f: Facts) -> str:
    """The callback of item that queues item again, directly or through a
    function of the group it calls; "" when none does."""
    sched = re.compile(r"\btasklet_(?:hi_)?schedule\s*\([^;]*\b" + re.escape(item) + r"\b")
    for cb in sorted(f.callbacks.get(item, ())):
        todo, seen = [cb], set()
        while todo:
            fn = todo.pop()
            if fn in seen:
                continue
            seen.add(fn)
            if sched.search(f.bodies.get(fn, "")):
                return cb
            todo += sorted(f.callees.get(fn, ()))
    return ""
