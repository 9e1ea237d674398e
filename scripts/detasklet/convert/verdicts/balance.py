# SPDX-License-Identifier: GPL-2.0-only
"""An enable that some path of its function reaches without the disable.

tasklet_enable() of an item no disable reached leaves the tasklet's count
at -1 (the item never runs again until another enable); enable_work()
there WARNs "work disable count underflowed" and leaves the count at 0.
Neither is what the driver meant, and no replacement is the same
operation: the site is refused with the path.

Only an enable whose function also disables the item before it is
judged (a function that enables what another disabled pairs across
functions, which this does not follow). Such an enable is balanced when
some disable of the item before it dominates it: the disable is a
statement of a block that holds the enable, not the body of an if, else,
for or while without braces, and no label between the two is the
target of a goto that comes before the disable. Otherwise the path that
skips the disable is named: the condition that guards it, or the goto.
"""

from __future__ import annotations

import re

from ...ctext.lex import function_spans, line_start, paren_end
from ...ctext.tasklet import DISABLE_RE, ENABLE_RE

_LABEL_RE = re.compile(r"(?:^|[;{}])\s*([A-Za-z_]\w*)\s*:(?!:)")


def _item(code: str, open_end: int) -> str:
    arg = code[open_end:paren_end(code, open_end) - 1]
    names = re.findall(r"[A-Za-z_]\w*", arg)
    return names[-1] if names else ""


def _block(body: str, pos: int) -> tuple[int, int]:
    """(start, end) of the innermost {...} of body that holds pos."""
    stack, spans = [], []
    for i, ch in enumerate(body):
        if ch == "{":
            stack.append(i)
        elif ch == "}" and stack:
            spans.append((stack.pop(), i))
    holding = [(a, b) for a, b in spans if a < pos < b]
    return max(holding) if holding else (0, len(body))


def _stmt_start(body: str, pos: int) -> int:
    """The start of the statement at pos: just after the ';', '{' or '}'
    before it that is outside parentheses (a for's ';' is inside)."""
    depth, i = 0, pos
    while i > 0:
        i -= 1
        c = body[i]
        if c == ")":
            depth += 1
        elif c == "(":
            depth -= 1
        elif c in ";{}" and depth <= 0:
            return i + 1
    return 0


def _control(lead: str) -> str:
    """'if (c)', 'else', 'while (c)' or 'for (...)' when the text before a
    statement (or a block's '{') makes it the body of one; else ""."""
    lead = lead.strip()
    m = re.match(r"(?:else\s+)?(if|while|for|switch)\s*\(", lead)
    if m:
        end = paren_end(lead, m.end())
        return f"{m.group(1)} ({' '.join(lead[m.end():end - 1].split())})"
    return "else" if lead == "else" else ""


def _chain(body: str, pos: int, stop: int | None = None) -> list[str]:
    """The conditions the statement at pos runs under, innermost first: its
    own if/else/for/while without braces, then the heads of the blocks
    around it, up to the block that holds stop (or the function's)."""
    out = []
    g = _control(body[_stmt_start(body, pos):pos])
    if g:
        out.append(g)
    while True:
        a, b = _block(body, pos)
        if a == 0 or stop is not None and a <= stop <= b:
            return out
        g = _control(body[_stmt_start(body, a):a])
        if g:
            out.append(g)
        pos = a


def _stable(cond: str, between: str) -> bool:
    """Whether nothing between assigns a name of cond ('if (p->up)')."""
    names = set(re.findall(r"[A-Za-z_]\w*(?:\s*(?:->|\.)\s*\w+)*(?!\s*\()", cond[3:]))
    return not any(re.search(r"(?<![\w>.])" + re.escape(n) + r"\s*(?:[-+*/|&^]?=(?!=)|\+\+|--)",
                             between) for n in names)


def _dominates(body: str, d: int, e: int) -> str:
    """"" when the disable at d is on every path to the enable at e, else
    the path that skips it. A condition of the disable that also guards
    the enable, unchanged in between, is on both paths alike."""
    mine = set(_chain(body, e))
    for g in _chain(body, d, e):
        if not (g.startswith("if (") and g in mine and _stable(g, body[d:e])):
            return f"the disable runs only under {g}"
    for m in _LABEL_RE.finditer(body, d, e):
        label = m.group(1)
        if label == "default":
            continue
        if re.search(r"\bgoto\s+" + label + r"\s*;", body[:d]):
            return f"a goto {label} before the disable jumps past it to the enable"
    return ""


def unbalanced(code: str) -> list[tuple[int, str, str, str]]:
    """(line, function, item, why) of each enable of masked code that a
    path of its function reaches without the disable before it."""
    out = []
    for start, end, fn in function_spans(code):
        body = code[start:end]
        dis: dict[str, list[int]] = {}
        for m in DISABLE_RE.finditer(body):
            dis.setdefault(_item(body, m.end()), []).append(m.start())
        for m in ENABLE_RE.finditer(body):
            item = _item(body, m.end())
            before = [d for d in dis.get(item, []) if d < m.start()]
            if not before:
                continue        # paired with a disable elsewhere: not followed here
            whys = [_dominates(body, d, m.start()) for d in before]
            if all(whys):
                line = code.count("\n", 0, start + m.start()) + 1
                out.append((line, fn, item, whys[-1]))
    return out


def why_unbalanced(path_code: str, line: int, item: str) -> str:
    """Why the enable of item at line of this code is refused ("" when a
    disable before it reaches it on every path, or none is in its
    function)."""
    for ln, fn, it, why in unbalanced(path_code):
        if ln == line and it == item:
            return (f"on a path of {fn}() no disable of {item} runs before this enable "
                    f"({why}): tasklet_enable() there leaves the tasklet's count at -1, "
                    "and enable_work() WARNs \"work disable count underflowed\"; the driver "
                    "must pair them on every path first (the enable under the condition "
                    "of the disable)")
    return ""


def disable_before(code: str, line: int, item: str) -> str:
    """The disable call (tasklet_disable, _nosync, _in_atomic) of item
    that runs before the call at line of masked code on every path of its
    function, with no enable of item in between; "" when there is none."""
    at = line_start(code, line)
    for start, end, _ in function_spans(code):
        if not start <= at < end:
            continue
        body, e = code[start:end], at - start
        found = ""
        for m in DISABLE_RE.finditer(body, 0, e):
            if _item(body, m.end()) != item or _dominates(body, m.start(), e):
                continue
            if any(_item(body, n.end()) == item for n in ENABLE_RE.finditer(body, m.end(), e)):
                continue
            found = m.group(1)
        return found
    return ""

