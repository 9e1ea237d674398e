# SPDX-License-Identifier: GPL-2.0-only
"""Whether code outside a group can queue one of its items (convert.verdicts.kills).

A kill whose run calls through a pointer no assignment of the group sets
(a client's callback, another module's ops) cannot read what that call
runs; what it needs is that the call never queues the item again. Code
outside the group can queue the item only by naming it (a file that names
it, or a member of it declared in a shared header, is in the group:
convert.facts.groups) or by calling a function of the group that queues it,
directly or through the group's own calls. It can call such a function
only if the function is visible outside: defined in a header, not static,
or its address handed on (stored in a pointer or an ops table, passed as
a callback) other than to a registration the kernel runs when an event
fires (an interrupt, a timer, a tasklet or work item: ctext.pointers
EVENT_CALLS), which no call of a client makes. entries() lists those
functions, and the macros of the group's headers that queue it (a file
that only expands one is in no group); none means the unread call cannot
queue the item. A function that queues a tasklet its caller hands it
(a struct tasklet_struct * parameter) queues any item.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...ctext.pointers import EVENT_CALLS, address_taken, exported
from ...ctext.tasklet import ANY_SCHEDULE_RE, macros, schedule_of, takes_tasklet
from .analyses import Facts, next_calls


@dataclass(frozen=True)
class Entry:
    fn: str          # the function code outside the group can call
    how: str         # "exported", "not static", "defined in foo.h", "stored in done"
    queues: str      # the function of the group it reaches that queues the item


def queues_item(fn: str, body: str, item: str, f: Facts) -> bool:
    """Whether fn's body queues item: by name, or a tasklet its caller
    hands it (a struct tasklet_struct * parameter: any item)."""
    if schedule_of(item).search(body):
        return True
    home = f.codes.get(f.homes.get(fn, ""), "")
    return bool(ANY_SCHEDULE_RE.search(body)) and takes_tasklet(home, fn)


def queuers(item: str, f: Facts) -> dict[str, str]:
    """function -> the function that queues item it reaches (itself
    when it queues it), for every function of the group that reaches a
    tasklet_schedule() of item through its calls (direct, or through a
    pointer member the group sets to its own functions); a function that
    queues the tasklet its caller passes queues any item."""
    out = {fn: fn for fn, body in f.bodies.items() if queues_item(fn, body, item, f)}
    callers: dict[str, set[str]] = {}
    for fn in f.bodies:
        for c in next_calls(fn, f):
            callers.setdefault(c, set()).add(fn)
    todo = sorted(out)
    while todo:
        fn = todo.pop()
        for c in sorted(callers.get(fn, ())):
            if c not in out:
                out[c] = out[fn]
                todo.append(c)
    return out


def visibility(fn: str, f: Facts) -> list[str]:
    """How code outside the group can call fn: "defined in foo.h",
    "exported" or "not static", each place its address is handed on
    other than to an event's registration ("stored in done", "passed to
    foo_register()"); [] when it cannot."""
    home = f.homes.get(fn, "")
    out = []
    if home.endswith(".h"):
        out.append(f"defined in {home}")
    elif any(fn in exported(c) for c in list(f.codes.values()) + list(f.module.values())):
        out.append("exported")
    elif fn not in f.static:
        out.append("not static")
    for code in f.codes.values():
        if fn in code:
            out += [w for w in address_taken(code, fn)
                    if w.removeprefix("passed to ").removesuffix("()") not in EVENT_CALLS
                    and w not in out]
    return out


def header_macros(item: str, qs: dict[str, str], f: Facts) -> list[Entry]:
    """The macros of the group's headers that queue item or call a function
    that does: any file including the header can expand them, named in
    the group or not."""
    out = []
    for path, code in sorted(f.codes.items()):
        if not path.endswith(".h"):
            continue
        for name, body in sorted(macros(code).items()):
            q = next((q for fn, q in sorted(qs.items()) if re.search(rf"\b{fn}\b", body)), "")
            if schedule_of(item).search(body) or q:
                out.append(Entry(name, f"a macro of {path}", q or name))
    return out


def entries(item: str, f: Facts) -> list[Entry]:
    """The functions of the group code outside it can call that queue item
    or reach a function that does (queuers, visibility), by name; then
    the macros of its headers that do."""
    qs = queuers(item, f)
    return [Entry(fn, "; ".join(how), q) for fn, q in sorted(qs.items())
            if (how := visibility(fn, f))] + header_macros(item, qs, f)


def registered(fns: list[str], f: Facts) -> list[str]:
    """The event registrations the addresses of fns go to, in the words
    of the kill's sentence: "request_irq() (foo_irq())"."""
    out: dict[str, set[str]] = {}
    for fn in fns:
        for code in f.codes.values():
            for w in address_taken(code, fn) if fn in code else []:
                out.setdefault(w.removeprefix("passed to "), set()).add(f"{fn}()")
    return [f"{call} ({', '.join(sorted(by))})" for call, by in sorted(out.items())]
