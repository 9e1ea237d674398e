# SPDX-License-Identifier: GPL-2.0-only
"""Calls through a function pointer, and the functions a name is set to.

The kill analysis (convert.verdicts.analyses) follows a callback into the functions
of its group. A direct call names its function; a call through a pointer
member (`engine->submit_fn(engine)`, `ops->handler(x)`, `q.done(q)`,
`(*p->fn)(x)`) names only the member, and runs whatever function was
stored there. Read from masked code:

- pointer_calls(): each such call in a body, as (member, the call as
  written up to its '(').
- assigned(): each name a function is stored into, with the functions:
  `.m = fn` in an initialiser, `E->m = fn;`, `E.m = fn;` (a cast or an
  '&' before fn allowed), and `p = fn;` for a plain pointer called as
  `(*p)(...)`. Which of the names are functions is for the caller to say
  (the functions of its group).
- address_taken(): where a function's address is handed on (the call it
  is an argument of, the name it is stored into), and exported(): the
  functions an EXPORT_SYMBOL*() names. With is_static() (ctext.teardown)
  they say whether code outside a group can call a function of it.
"""

from __future__ import annotations

import re

from .ptrtypes import Declarations, chain_struct, initialiser_struct

# E->m(  E.m(  (*E->m)(  (*p)(  ; the expression before the member is
# kept, as far as it is a plain chain (a->b[i].c), for the reason that
# names the call
_MEMBER_CALL_RE = re.compile(r"(->|\.)\s*(\w+)\s*\(")
_CHAIN_RE = re.compile(r"(?<![\w.>])(?:\w+(?:\[[^\]\[;()]*\])*\s*(?:->|\.)\s*)*"
                       r"\w+(?:\[[^\]\[;()]*\])*\s*$")
_DEREF_CALL_RE = re.compile(r"\(\s*\*\s*((?:\w+\s*(?:->|\.)\s*)*)(\w+)\s*\)\s*\(")
# m = fn followed by ',', ';' or '}': never m == fn, never m = fn(x)
_SET_RE = re.compile(r"(\w+)\s*(?<![=!<>])=\s*(?:\(\s*[\w\s*]+\)\s*)?&?\s*(\w+)\s*(?=[,;}])")


def _squeeze(s: str) -> str:
    return re.sub(r"\s+", "", s)


def _chain(body: str, end: int) -> str:
    """The plain chain (a->b[i].c) that ends at end, squeezed; "" when
    the expression before the member is not one (a cast, a call)."""
    m = _CHAIN_RE.search(body, max(0, end - 200), end)
    return _squeeze(m.group(0)) if m else ""


def _calls(body: str) -> list[tuple[int, str, str, str | None]]:
    """(offset, member, call, holder) of each call through a pointer in
    masked body, in order; holder is the chain whose member is called
    ("" when it is no plain chain: a cast, a call), None for a plain
    pointer called as (*p)(...)."""
    found: list[tuple[int, str, str, str | None]] = []
    for m in _MEMBER_CALL_RE.finditer(body):
        chain = _chain(body, m.start())
        found.append((m.start(), m.group(2), chain + m.group(1) + m.group(2), chain))
    for m in _DEREF_CALL_RE.finditer(body):
        holder = _squeeze(m.group(1))
        found.append((m.start(), m.group(2), f"(*{holder}{m.group(2)})",
                      re.sub(r"(?:->|\.)$", "", holder) if holder else None))
    return sorted(found)


def pointer_calls(body: str) -> list[tuple[str, str]]:
    """(member, call) for each call through a pointer in masked body, in
    order: ("submit_fn", "sched_engine->submit_fn"), ("fn", "(*p->fn)")."""
    return [(member, call) for _, member, call, _ in _calls(body)]


def typed_calls(code: str, start: int, end: int, decls: Declarations,
                types: dict[str, dict[str, str]]) -> list[tuple[str, str, str | None]]:
    """(member, call, struct) for each call through a pointer in the body
    code[start:end]: struct is the tag of the object whose member is
    called (ctext.ptrtypes; "" when not known), None for a plain pointer."""
    out: list[tuple[str, str, str | None]] = []
    for at, member, call, holder in _calls(code[start:end]):
        tag = None if holder is None else \
            chain_struct(decls, start + at, holder, types) if holder else ""
        out.append((member, call, tag))
    return out


def assigned(code: str) -> dict[str, set[str]]:
    """name -> the identifiers stored into it (masked code): a member set
    in an initialiser or by an assignment, or a plain pointer variable."""
    out: dict[str, set[str]] = {}
    for m in _SET_RE.finditer(code):
        if m.group(2) in ("NULL", "0"):
            continue
        out.setdefault(m.group(1), set()).add(m.group(2))
    return out


def typed_stores(code: str, decls: Declarations,
                 types: dict[str, dict[str, str]]) -> list[tuple[str, str, str | None]]:
    """(name, identifier, struct) for each store assigned() reads: struct
    is the tag of the object whose member is set (`.m = fn` in a `struct
    foo_ops` initialiser, `c->vc.m = fn;` with c->vc a struct
    virt_dma_chan: ctext.ptrtypes; "" when not known), None when a plain
    pointer variable is set (`p = fn;`)."""
    out: list[tuple[str, str, str | None]] = []
    for m in _SET_RE.finditer(code):
        if m.group(2) in ("NULL", "0"):
            continue
        lead = len(code[:m.start(1)].rstrip()) if m.start(1) < 300 else \
            m.start(1) - 300 + len(code[m.start(1) - 300:m.start(1)].rstrip())
        op = 2 if code.endswith("->", 0, lead) else 1 if code.endswith(".", 0, lead) else 0
        tag: str | None = None          # p = fn: a plain pointer
        if op:
            chain = _chain(code, lead - op)
            tag = chain_struct(decls, m.start(1), chain, types) if chain else \
                initialiser_struct(code, m.start(1), types) if op == 1 else ""
        out.append((m.group(1), m.group(2), tag))
    return out


# Registrations whose function the kernel runs when an event fires (an
# interrupt, a timer, a tasklet or work item, the end of a USB transfer),
# never as a call another function makes: code outside a group that holds
# no such pointer cannot call it.
EVENT_CALLS = frozenset({
    "request_irq", "request_threaded_irq", "request_any_context_irq", "request_percpu_irq",
    "request_nmi", "devm_request_irq", "devm_request_threaded_irq",
    "devm_request_any_context_irq", "timer_setup", "hrtimer_setup", "hrtimer_setup_on_stack",
    "tasklet_setup", "tasklet_init", "DECLARE_TASKLET", "DECLARE_TASKLET_OLD",
    "DECLARE_TASKLET_DISABLED", "DECLARE_TASKLET_DISABLED_OLD", "INIT_WORK",
    "INIT_DELAYED_WORK", "DECLARE_WORK", "DECLARE_DELAYED_WORK", "usb_fill_bulk_urb",
    "usb_fill_int_urb", "usb_fill_control_urb"})
_EXPORT_RE = re.compile(r"\bEXPORT_(?:SYMBOL|SYMBOL_GPL|SYMBOL_NS|SYMBOL_NS_GPL|"
                        r"SYMBOL_GPL_FOR_MODULES)\s*\(\s*(\w+)")
# what may stand between an address and the '=' or ',' before it: '&', a cast
_PREFIX_RE = re.compile(r"(?:&|\(\s*[\w\s*]+\)|\s)*$")


def exported(code: str) -> set[str]:
    """The names masked code exports (EXPORT_SYMBOL*(name))."""
    return set(_EXPORT_RE.findall(code))


def _enclosing_call(code: str, i: int) -> str:
    """The function whose call's argument list holds offset i (the
    innermost '(' not closed before i, after an identifier); "" when i is
    in none (an initialiser, a statement)."""
    depth = 0
    for j in range(i - 1, max(-1, i - 2000), -1):
        ch = code[j]
        if ch in ";{}":
            return ""
        depth += {")": 1, "(": -1}.get(ch, 0)
        if depth < 0:
            m = re.search(r"(\w+)\s*$", code[max(0, j - 80):j])
            return m.group(1) if m else ""
    return ""


def address_taken(code: str, fn: str) -> list[str]:
    """Where masked code hands fn's address on, in order: "passed to
    request_irq()" (an argument of that call), "stored in done" (an
    assignment or a field of an initialiser: `.done = fn`, `p->done =
    &fn`), "named" (anywhere else: a table without field names, a
    comparison). A call of fn, its definition and its prototypes take no
    address."""
    out = []
    for m in re.finditer(r"\b" + re.escape(fn) + r"\b", code):
        if code[m.end():m.end() + 40].lstrip().startswith("("):
            continue
        before = code[max(0, m.start() - 200):m.start()]
        head = _PREFIX_RE.sub("", before, count=1)
        if head.endswith("=") and not head.endswith(("==", "!=", "<=", ">=")):
            name = re.search(r"(\w+)(?:\s*\[[^\]]*\])?\s*$", head[:-1])
            out.append(f"stored in {name.group(1)}" if name else "named")
            continue
        call = _enclosing_call(code, m.start()) if head.endswith((",", "(")) else ""
        if call.startswith("EXPORT_"):
            continue
        out.append(f"passed to {call}()" if call else "named")
    return out
