"""The tracked enable, written where spatch does not: the flag's declaration
and its clearing first in the callback.

cocci/40-calls.cocci sets the flag where the item is queued
(set_bit(0, &p->rx_bh_queued); queue_work(...)) and tests it at enable
(if (enable_work(w)) { smp_mb(); if (test_bit(0, flag)) queue_work(...); }).
This module adds, after spatch, the two pieces that are positions in a
declaration or a body rather than rewrites of a call:

  - unsigned long <item>_queued; after the member <item> of its struct, or
    static unsigned long <item>_queued; after a global item;
  - clear_bit(0, <flag>); smp_mb__after_atomic(); after the declarations
    at the top of each callback of the item.

Why the order is safe: enable_work() ends with a full barrier, and the
queueing side's test_and_set of the pending bit is fully ordered; either
queue_work() sees the item enabled and queues, or the enable sees the flag
and queues; both may queue, which collapses into one run. The callback
clears the flag before it reads the state a run was asked for.
"""

from __future__ import annotations

import re

from .legacydata import add_member

_DECL_RE = re.compile(r"\t+(?:(?:const|static|volatile|unsigned|signed|struct|union|enum)\s+)*"
                      r"(?!return\b|goto\b|else\b|case\b|do\b|if\b|while\b|for\b|switch\b)"
                      r"\w+\s+[\s*]*\w+\s*(?:\[[^\]]*\]\s*)*(?:=|;|,)")


def add_flags(orig: str, text: str, tracked: dict[str, dict], path: str) -> str:
    """Declare the flag of each tracked item where the item is declared."""
    for item, t in sorted(tracked.items()):
        flag = item + "_queued"
        if t["kind"] == "member":
            text = add_member(orig, text, item, flag)
        elif t["home"] == path:
            m = re.search(r"^(?:static\s+)?(?:DECLARE_WORK\s*\(\s*" + item + r"\s*,[^;]*\)|"
                          r"struct\s+work_struct\s+" + item + r")\s*;[^\n]*\n", text, re.M)
            if not m:
                continue
            # before a callback defined above the item (it names the flag)
            first = min((c.start() for cb in t["callbacks"] for c in re.finditer(
                r"^[^\n]*\b" + cb + r"\(struct work_struct \*work\)\n\{", text, re.M)),
                default=m.end())
            if first < m.start():
                text = text[:first] + f"static unsigned long {flag};\n\n" + text[first:]
            else:
                text = text[:m.end()] + f"static unsigned long {flag};\n" + text[m.end():]
    return text


def _flag_in(body: str, item: str, t: dict) -> str:
    """The flag as the callback body reaches it: through from_work()'s
    container for a member, by name for a global."""
    if t["kind"] == "global":
        return f"&{item}_queued"
    m = re.search(r"\bfrom_work\(\s*(\w+)\s*,\s*work\s*,\s*([\w.\[\]]*\b" + item + r")\s*\)",
                  body)
    return f"&{m.group(1)}->{m.group(2)}_queued" if m else ""


def mark_callbacks(text: str, tracked: dict[str, dict]) -> str:
    """Clear the flag first in every callback of a tracked item that this
    text defines (after its declarations)."""
    for item, t in sorted(tracked.items()):
        for cb in t["callbacks"]:
            m = re.search(r"^[^\n]*\b" + cb + r"\(struct work_struct \*work\)\n\{\n", text, re.M)
            if not m:
                continue
            end = text.find("\n}\n", m.end())
            body = text[m.end():end if end >= 0 else len(text)]
            flag = _flag_in(body, item, t)
            if not flag or "clear_bit(0, " + flag + ")" in body:
                continue
            lines = body.split("\n")
            k = 0
            while k < len(lines) and (_DECL_RE.match(lines[k]) or
                                      k and not lines[k - 1].rstrip().endswith((";", "{"))
                                      and lines[k].strip()):
                k += 1
            add = [f"\tclear_bit(0, {flag});", "\tsmp_mb__after_atomic();"]
            if k and k < len(lines) and not lines[k].strip():
                k += 1                               # after the blank line
            elif k:
                add = [""] + add
            if k < len(lines) and lines[k].strip() and lines[k].strip() != "}":
                add.append("")
            lines[k:k] = add
            text = text[:m.end()] + "\n".join(lines) + text[m.end() + len(body):]
    return text
