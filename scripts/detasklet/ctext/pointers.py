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
"""

from __future__ import annotations

import re

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


def pointer_calls(body: str) -> list[tuple[str, str]]:
    """(member, call) for each call through a pointer in masked body, in
    order: ("submit_fn", "sched_engine->submit_fn"), ("fn", "(*p->fn)")."""
    found = [(m.start(), m.group(2), _chain(body, m.start()) + m.group(1) + m.group(2))
             for m in _MEMBER_CALL_RE.finditer(body)]
    found += [(m.start(), m.group(2), f"(*{_squeeze(m.group(1))}{m.group(2)})")
              for m in _DEREF_CALL_RE.finditer(body)]
    return [(member, call) for _, member, call in sorted(found)]


def assigned(code: str) -> dict[str, set[str]]:
    """name -> the identifiers stored into it (masked code): a member set
    in an initialiser or by an assignment, or a plain pointer variable."""
    out: dict[str, set[str]] = {}
    for m in _SET_RE.finditer(code):
        if m.group(2) in ("NULL", "0"):
            continue
        out.setdefault(m.group(1), set()).add(m.group(2))
    return out
