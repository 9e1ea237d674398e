# SPDX-License-Identifier: GPL-2.0-only
"""Whitespace of the lines a rewrite changed, as checkpatch and maintainers want it.

spatch prints the lines it rewrites with its own idea of layout. This pass
looks only at the lines the rewrite changed (and at the continuation lines
of those, whose open parenthesis moved), and

- re-aligns a continuation line that was aligned with an open parenthesis
  in the original, to the new column of that parenthesis
  (`tasklet_setup(&p->t,` / `..............cb)` after `INIT_WORK(`);
- writes the indent of a changed line as tabs, then fewer than 8 spaces
  (checkpatch CODE_INDENT, LEADING_SPACE); in a file indented by 4 spaces,
  one tab per 4 spaces;
- removes the space between a function pointer's name and its parameter
  list (`void (*cb) (struct work_struct *t)`, checkpatch SPACING);
- wraps a changed line longer than 100 columns after a comma, aligned
  with its open parenthesis (checkpatch LONG_LINE).

It changes whitespace only: if the code without whitespace differs from
the input, the input is returned unchanged. Pure: text in, text out.
"""

from __future__ import annotations

import difflib
import re

from .lex import mask

MAX_COLS = 100
_FNPTR_RE = re.compile(r"\(\s*\*\s*(\w+)\s*\)[ \t]+\(")


def width(s: str) -> int:
    """Visual columns of s (tabs to 8)."""
    col = 0
    for ch in s:
        col = (col // 8 + 1) * 8 if ch == "\t" else col + 1
    return col


def indent_of(line: str) -> str:
    return line[:len(line) - len(line.lstrip(" \t"))]


def make_indent(col: int) -> str:
    return "\t" * (col // 8) + " " * (col % 8)


def _code_positions(line: str) -> list[tuple[int, str]]:
    """(index, char) of the brackets and commas of line outside literals
    and comments."""
    return [(i, ch) for i, ch in enumerate(mask(line)) if ch in "(),"]


def open_paren_col(line: str) -> int | None:
    """Visual column of the innermost '(' still open at the end of line."""
    stack: list[int] = []
    for i, ch in _code_positions(line):
        if ch == "(":
            stack.append(i)
        elif ch == ")" and stack:
            stack.pop()
    return width(line[:stack[-1]]) if stack else None


def retab(line: str, four: bool = False) -> str:
    ind = indent_of(line)
    if not line.strip():
        return line
    if four and ind and "\t" not in ind:
        # A file indented by 4 spaces (fore200e): one tab per level, so a
        # changed line starts with a tab (checkpatch LEADING_SPACE).
        return "\t" * (len(ind) // 4) + " " * (len(ind) % 4) + line[len(ind):]
    return make_indent(width(ind)) + line[len(ind):]


def four_space(text: str) -> bool:
    """Whether a good part (a quarter) of the indented lines of text are
    indented by spaces alone, in steps of 4: fore200e's style (4 columns
    a level, a tab for 8 on some lines only), kept as one tab per step."""
    inds = [indent_of(ln) for ln in text.splitlines() if ln[:1] in (" ", "\t") and ln.strip()]
    # Odd steps of 4 (4, 12, 20 spaces) only: 8 spaces is also a tab's width.
    spaces = [i for i in inds if "\t" not in i and len(i) % 8 == 4]
    return bool(inds) and len(spaces) * 4 > len(inds)


def _fnptr(line: str) -> str:
    if '"' in line or "'" in line:
        return line
    return _FNPTR_RE.sub(r"(*\1)(", line)


def wrap(line: str, limit: int = MAX_COLS) -> str:
    """line (no newline) broken after commas so that each piece fits in
    limit columns, continuation aligned with its open parenthesis; line
    itself when it fits or has no such comma."""
    eol = line[len(line.rstrip("\n")):]
    body = line[:len(line) - len(eol)]
    pieces: list[str] = []
    while width(body) > limit:
        stack: list[int] = []
        cut = None
        for i, ch in _code_positions(body):
            if ch == "(":
                stack.append(i)
            elif ch == ")" and stack:
                stack.pop()
            elif ch == "," and stack and width(body[:i + 1]) <= limit:
                col = width(body[:stack[-1]]) + 1
                rest = body[i + 1:].lstrip(" \t")
                if rest and col < limit // 2:
                    cut = (i, col)
        if cut is None:
            break
        i, col = cut
        pieces.append(body[:i + 1].rstrip(" \t"))
        body = make_indent(col) + body[i + 1:].lstrip(" \t")
    if not pieces:
        return line
    return "\n".join(pieces + [body]) + eol


def _squash(s: str) -> str:
    return re.sub(r"\s+", "", s)


def tidy(old: str, new: str) -> str:
    """new, with the lines the rewrite changed laid out as described above."""
    a = old.splitlines(keepends=True)
    b = new.splitlines(keepends=True)
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    changed: set[int] = set()
    old_of: dict[int, int] = {}
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            old_of.update({j1 + k: i1 + k for k in range(j2 - j1)})
        else:
            changed.update(range(j1, j2))
    out = list(b)
    touched = set(changed)
    realigned: set[int] = set()
    for j in range(1, len(out)):
        if j in changed or j - 1 not in touched or j not in old_of or old_of[j] == 0:
            continue
        i = old_of[j]
        text = a[i][len(indent_of(a[i])):]
        if not text.strip():
            continue
        ocol, ncol = open_paren_col(a[i - 1]), open_paren_col(out[j - 1])
        oind = width(indent_of(a[i]))
        if ocol is not None and ncol is not None:
            if oind == ocol + 1 and ncol != ocol:
                out[j] = make_indent(ncol + 1) + text
                touched.add(j)
                realigned.add(j)
        elif (ocol is None and j - 1 in realigned
              and oind == width(indent_of(a[i - 1]))):
            out[j] = indent_of(out[j - 1]) + text
            touched.add(j)
            realigned.add(j)
    four = four_space(old)
    for j in sorted(touched):
        out[j] = wrap(_fnptr(retab(out[j], four)))
    result = "".join(out)
    return result if _squash(result) == _squash(new) else new
