# SPDX-License-Identifier: GPL-2.0-only
"""Whether the lines a conversion changed reached the compiler.

An object that builds says nothing about a changed line under an `#ifdef`
that the configuration leaves off. The preprocessed output (`make x.i`)
says which lines survived: its line markers (`# 120 "path" 1`) name the
file and line of what follows, and a line that carries tokens is there.

A source line is compiled when its conditional region is: the lines
between two preprocessor directives share one inclusion state (only a
directive changes it), so a region is on when any of its lines carries
tokens in the output. This also covers a line whose tokens were printed on
an earlier line: the arguments of a macro call that spans lines (gcc prints
the expansion on the line of the macro's name) sit in the same region.

changed_lines() gives the added code lines of a file (blank, comment-only
and directive lines carry nothing to check); conditional_lines() those
under an #if of the file itself (a line of a .c outside any is compiled
whenever its own object is, no .i needed); present_lines() reads a .i;
compiled() keeps the changed lines in a region that is on.
"""

from __future__ import annotations

import difflib
import os
import re

from .lex import mask

_MARKER = re.compile(r'^#(?:line)? (\d+) "((?:\\.|[^"\\])*)"')


def directive_lines(text: str) -> set[int]:
    """1-based numbers of the lines that are part of a preprocessor
    directive, with their backslash continuations (comments masked)."""
    out: set[int] = set()
    cont = False
    for n, ln in enumerate(mask(text).split("\n"), 1):
        if cont or ln.lstrip().startswith("#"):
            out.add(n)
            cont = ln.rstrip().endswith("\\")
        else:
            cont = False
    return out


_IF = re.compile(r"\s*#\s*(if|ifdef|ifndef|endif)\b")


def conditional_lines(text: str) -> set[int]:
    """1-based numbers of the lines inside an #if, #ifdef or #ifndef of the
    text itself (an include guard too)."""
    out: set[int] = set()
    depth = 0
    for n, ln in enumerate(mask(text).split("\n"), 1):
        m = _IF.match(ln)
        if m and m.group(1) == "endif":
            depth = max(0, depth - 1)
        elif depth:
            out.add(n)
        if m and m.group(1) != "endif":
            depth += 1
    return out


def changed_lines(old: str, new: str) -> list[int]:
    """1-based numbers, in new, of the lines the change added that carry
    code: not blank, not only a comment, not a directive."""
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    code = mask(new).split("\n")
    skip = directive_lines(new)
    return [j + 1 for tag, _, _, j1, j2 in sm.get_opcodes() if tag in ("replace", "insert")
            for j in range(j1, j2) if code[j].strip() and j + 1 not in skip]


def _relative(path: str, roots: tuple[str, ...]) -> str:
    p = os.path.normpath(path)
    for r in roots:
        if p.startswith(r + "/"):
            return p[len(r) + 1:]
    return p


def present_lines(text: str, roots: tuple[str, ...], want: set[str]) -> dict[str, set[int]]:
    """path (relative to the first of roots it is under) -> the lines of it
    that carry tokens in the preprocessed text, for the paths of want.
    A marker's path is as gcc was given it (absolute for an O= build, or
    relative to the build folder: roots has both forms' prefixes)."""
    out: dict[str, set[int]] = {}
    cur: set[int] | None = None
    line = 0
    for ln in text.split("\n"):
        if ln.startswith("#"):
            m = _MARKER.match(ln)
            if m:
                path = _relative(m.group(2).replace('\\"', '"').replace("\\\\", "\\"), roots)
                cur = out.setdefault(path, set()) if path in want else None
                line = int(m.group(1))
                continue
        if cur is not None and ln.strip():
            cur.add(line)
        line += 1
    return out


def regions(text: str) -> list[int]:
    """For each line (index n-1 of line n), the number of its conditional
    region: regions are the runs of lines between directive lines."""
    skip = directive_lines(text)
    out, r = [], 0
    for n in range(1, text.count("\n") + 2):
        if n in skip:
            r += 1
            out.append(-1)
        else:
            out.append(r)
    return out


def compiled(new: str, changed: list[int], present: set[int]) -> list[int]:
    """The lines of changed that sit in a conditional region of new that
    some line of present shows is on."""
    reg = regions(new)
    on = {reg[n - 1] for n in present if 0 < n <= len(reg) and reg[n - 1] >= 0}
    return [n for n in changed if 0 < n <= len(reg) and reg[n - 1] in on]
