# SPDX-License-Identifier: GPL-2.0-only
"""Diffs in the form git writes them, read back, applied, and counted.

`file_diff` is a unified diff with `diff --git` headers and no `index`
line (git am and patch -p1 both take it), hunks found with
difflib.SequenceMatcher without its "autojunk" heuristic (with it, blank
lines and braces of a long file count as junk and a three-line change
becomes a twelve-line hunk), and git's default function context after
`@@`. `parse` and `apply` read such a file back (also the older
`diff -u a/x b/x` form), so a series can be made again from all.patch.
Everything here is a pure function of its text arguments.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from ..errors import PatchError

CONTEXT = 3
_FUNC_RE = re.compile(r"[A-Za-z_$]")
_HUNK_RE = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
NO_EOL = "\\ No newline at end of file\n"


def _range(start: int, length: int) -> str:
    """difflib/git hunk range: 1-based start, ',len' unless len is 1."""
    first = start + 1
    if length == 1:
        return f"{first}"
    if not length:
        first -= 1
    return f"{first},{length}"


def _funcname(lines: list[str], before: int) -> str:
    """git's default hunk header context: the last line before index
    `before` that starts with a letter, '_' or '$', cut to 80 bytes."""
    for i in range(before - 1, -1, -1):
        ln = lines[i]
        if _FUNC_RE.match(ln):
            ln = ln.rstrip("\n").encode()[:80].decode(errors="ignore").rstrip()
            return " " + ln
    return ""


def _line(prefix: str, ln: str) -> str:
    return prefix + ln if ln.endswith("\n") else prefix + ln + "\n" + NO_EOL


def file_diff(path: str, old: str, new: str) -> str:
    """The git-form diff of one file, "" when old == new."""
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    out: list[str] = []
    for group in sm.get_grouped_opcodes(CONTEXT):
        i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        out.append(f"@@ -{_range(i1, i2 - i1)} +{_range(j1, j2 - j1)} @@"
                   f"{_funcname(a, i1)}\n")
        for tag, x1, x2, y1, y2 in group:
            if tag == "equal":
                out += [_line(" ", ln) for ln in a[x1:x2]]
                continue
            out += [_line("-", ln) for ln in a[x1:x2]]
            out += [_line("+", ln) for ln in b[y1:y2]]
    if not out:
        return ""
    return f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n" + "".join(out)


@dataclass
class FileDiff:
    path: str
    text: str                    # the whole section, headers included
    hunks: list[tuple[int, list[str]]]  # (old start, 1-based) -> body lines

    @property
    def added(self) -> int:
        return sum(ln.startswith("+") for _, h in self.hunks for ln in h)

    @property
    def removed(self) -> int:
        return sum(ln.startswith("-") for _, h in self.hunks for ln in h)

    def lines(self, sign: str) -> list[str]:
        """The added ('+') or removed ('-') lines, without the sign."""
        return [ln[1:] for _, h in self.hunks for ln in h if ln.startswith(sign)]


def parse(text: str) -> list[FileDiff]:
    """The file sections of a patch, in order. Anything before the first
    diff header (a commit message) and after the last hunk (`-- `) is
    skipped."""
    files: list[FileDiff] = []
    lines = text.splitlines(keepends=True)
    i = 0
    while i < len(lines):
        ln = lines[i]
        if not (ln.startswith("diff --git a/") or ln.startswith("diff -u a/")):
            i += 1
            continue
        start = i
        path = ln.split(" b/", 1)[1].rstrip("\n") if " b/" in ln else ""
        i += 1
        while i < len(lines) and not lines[i].startswith("@@"):
            if lines[i].startswith("+++ b/"):
                path = lines[i][6:].rstrip("\n")
            i += 1
        hunks: list[tuple[int, list[str]]] = []
        while i < len(lines) and lines[i].startswith("@@"):
            m = _HUNK_RE.match(lines[i])
            if not m:
                raise PatchError(f"bad hunk header: {lines[i].rstrip()}")
            olen = int(m[2]) if m[2] is not None else 1
            nlen = int(m[4]) if m[4] is not None else 1
            i += 1
            body: list[str] = []
            while (olen or nlen) and i < len(lines):
                b = lines[i]
                if b.startswith(" "):
                    olen, nlen = olen - 1, nlen - 1
                elif b.startswith("-"):
                    olen -= 1
                elif b.startswith("+"):
                    nlen -= 1
                elif b == "\n":          # a context line whose space was eaten
                    b = " \n"
                    olen, nlen = olen - 1, nlen - 1
                else:
                    raise PatchError(f"{path}: bad hunk line: {b.rstrip()}")
                body.append(b)
                i += 1
                if i < len(lines) and lines[i] == NO_EOL:
                    body.append(NO_EOL)
                    i += 1
            if olen or nlen:
                raise PatchError(f"{path}: truncated hunk")
            hunks.append((int(m[1]), body))
        files.append(FileDiff(path, "".join(lines[start:i]), hunks))
    return files


def apply(old: str, fd: FileDiff) -> str:
    """old with the hunks of fd applied; PatchError if they do not fit
    exactly (no fuzz: these diffs were made against this text)."""
    a = old.splitlines(keepends=True)
    out: list[str] = []
    pos = 0
    for start, body in fd.hunks:
        at = start - 1 if any(b[0] in " -" for b in body if b != NO_EOL) else start
        if at < pos:
            raise PatchError(f"{fd.path}: overlapping hunks")
        out += a[pos:at]
        pos = at
        for k, b in enumerate(body):
            if b == NO_EOL:
                continue
            text = b[1:]
            if k + 1 < len(body) and body[k + 1] == NO_EOL:
                text = text[:-1]
            if b[0] in " -":
                if pos >= len(a) or a[pos] != text:
                    raise PatchError(f"{fd.path}: hunk at line {start} does not apply")
                pos += 1
            if b[0] in " +":
                out.append(text)
    out += a[pos:]
    return "".join(out)


def apply_anywhere(old: str, fd: FileDiff) -> str:
    """old with the hunks of fd applied where their old lines (context and
    removed) are, whatever the line numbers say: a patch written against
    another version of the file, as patch(1) applies it with an offset but
    no fuzz. Each hunk's old lines must occur exactly once in old, after
    the previous hunk; PatchError otherwise."""
    a = old.splitlines(keepends=True)
    out: list[str] = []
    pos = 0
    for start, body in fd.hunks:
        lines = [b for b in body if b != NO_EOL]
        was = [b[1:] for b in lines if b[0] in " -"]
        now = [b[1:] for b in lines if b[0] in " +"]
        if not was:
            raise PatchError(f"{fd.path}: hunk at line {start} has no context to find")
        found = [i for i in range(len(a) - len(was) + 1) if a[i:i + len(was)] == was]
        if len(found) != 1 or found[0] < pos:
            raise PatchError(f"{fd.path}: the lines of the hunk at line {start} are "
                             + ("not there" if not found else "there more than once"
                                if len(found) > 1 else "before the previous hunk's"))
        out += a[pos:found[0]] + now
        pos = found[0] + len(was)
    out += a[pos:]
    return "".join(out)


def diffstat(files: list[FileDiff], width: int = 72) -> str:
    """A git-like --stat block: ' path | n +++--' lines and the summary."""
    if not files:
        return ""
    names = [f.path for f in files]
    changes = [f.added + f.removed for f in files]
    cw = len(str(max(changes)))
    nw = max(len(n) for n in names)
    maxc = max(changes)
    graph = max(width - nw - cw - 4, 10)
    if nw + cw + 4 + min(graph, maxc) > width:      # long names: cut them
        nw = max(width - cw - 4 - min(graph, maxc), 10)
        graph = width - nw - cw - 4
    out = []
    for f, n, c in zip(files, names, changes):
        if len(n) > nw:
            n = "..." + n[len(n) - nw + 3:]
        plus, minus = f.added, f.removed
        if maxc > graph:
            scale = graph / maxc
            plus = round(plus * scale) if plus else 0
            minus = round(minus * scale) if minus else 0
            plus = max(plus, 1 if f.added else 0)
            minus = max(minus, 1 if f.removed else 0)
        out.append(f" {n.ljust(nw)} | {str(c).rjust(cw)} {'+' * plus}{'-' * minus}\n")
    add, rem = sum(f.added for f in files), sum(f.removed for f in files)
    s = f" {len(files)} file{'s' if len(files) != 1 else ''} changed"
    if add:
        s += f", {add} insertion{'s' if add != 1 else ''}(+)"
    if rem:
        s += f", {rem} deletion{'s' if rem != 1 else ''}(-)"
    return "".join(out) + s + "\n"
