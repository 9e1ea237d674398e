# SPDX-License-Identifier: GPL-2.0-only
"""Tasklet members that nothing uses: removed, not converted.

A plain member `struct tasklet_struct x;` of a struct S that no code of
the tree names (ath9k_htc's swba_tasklet, rtl8723bs's
irq_prepare_beacon_tasklet, bng_re's nq_tasklet) is dead: a maintainer
asks for it to go, not to become a work_struct nobody queues. The proof,
by what the code says and not by the name:

- in the group's files (masked: comments and strings do not count), x is
  named once, by that declaration;
- every other file of the tree that names x as a word (one grep over the
  C, assembler and Rust files, for all candidates of the group) cannot
  reach S's x: each of its mentions is the declaration of a member of
  another struct (bnxt_re's own nq_tasklet), or it is a .c (.S, .rs) file
  whose #include closure does not reach the file that declares S. A header
  outside the group that names x otherwise (a macro, an inline function)
  counts as a use, as does a tree that grep cannot read.

A name built by token pasting (`foo_##x`) is not seen by either check;
no tasklet member of the reference trees is reached that way.
"""

from __future__ import annotations

import re
from pathlib import Path

from ... import proc
from ...ctext.includes import Resolver
from ...ctext.lex import mask
from ...ctext.sources import read_text
from ...ctext.tasklet import MEMBER_LINE_RE
from .legacy_local import struct_at


def candidates(codes: dict[str, str]) -> dict[str, dict[str, str]]:
    """path -> {member: its struct}, for the plain tasklet members of the
    group's masked codes that are inside a struct and named nowhere else
    in the group."""
    joined = "\n".join(codes.values())
    out: dict[str, dict[str, str]] = {}
    for path, code in codes.items():
        for m in MEMBER_LINE_RE.finditer(code):
            name, ctype = m.group(1), struct_at(code, m.start(1))
            if ctype and len(re.findall(r"\b" + name + r"\b", joined)) == 1:
                out.setdefault(path, {})[name] = ctype
    return out


def _closure(res: Resolver, start: str) -> set[str]:
    """The files start includes, directly or not."""
    seen, todo = set(), [start]
    while todo:
        f = todo.pop()
        for h in res.of(f):
            if h not in seen:
                seen.add(h)
                todo.append(h)
    return seen


def _elsewhere(code: str, name: str, ctype: str) -> bool:
    """Whether every mention of name in masked code declares a member of
    a struct other than ctype."""
    mentions = list(re.finditer(r"\b" + name + r"\b", code))
    decl = re.compile(r"\b(?:struct\s+)?\w+[\s*]+" + name + r"\s*(?:\[[^\]]*\]\s*)?;")
    for m in mentions:
        start, end = code.rfind("\n", 0, m.start()) + 1, code.find("\n", m.end())
        line = code[start:end if end >= 0 else len(code)]
        if not decl.search(line):
            return False
        other = struct_at(code, m.start())
        if not other or other == ctype:
            return False
    return True


def unused_members(kdir: Path, codes: dict[str, str]) -> dict[str, dict[str, str]]:
    """path -> {member: its struct} of the group's tasklet members that no
    code of the tree can name (see the module's docstring)."""
    cands = candidates(codes)
    names = sorted({n for ms in cands.values() for n in ms})
    if not names:
        return {}
    r = proc.run(["grep", "-rlw", "--include=*.[chS]", "--include=*.rs",
                  *[a for n in names for a in ("-e", n)], "."], cwd=kdir)
    if r.rc > 1:
        return {}                          # cannot tell: every member is used
    res = Resolver(kdir, search_up=True)
    used: set[tuple[str, str]] = set()
    for hit in sorted(ln.removeprefix("./") for ln in r.stdout.splitlines()):
        if hit in codes:
            continue
        code = mask(read_text(kdir / hit))
        reach: set[str] | None = None
        for path, ms in cands.items():
            for name, ctype in ms.items():
                if not re.search(r"\b" + name + r"\b", code) or _elsewhere(code, name, ctype):
                    continue
                if hit.endswith(".h"):
                    used.add((path, name))
                    continue
                reach = _closure(res, hit) if reach is None else reach
                if path in reach:
                    used.add((path, name))
    out = {p: {n: t for n, t in ms.items() if (p, n) not in used} for p, ms in cands.items()}
    return {p: ms for p, ms in out.items() if ms}


def note(name: str, ctype: str) -> str:
    """The reviewer's sentence for a removed member (commit message)."""
    return (f"{name}, a struct tasklet_struct member of {ctype}, is removed rather than "
            "converted: no code in the tree sets it up, queues it or names it otherwise.")


def remove(text: str, names: list[str]) -> str:
    """text (converted) without the member lines of names, now
    `struct work_struct name;`, and their kernel-doc lines."""
    for n in names:
        text = re.sub(r"^[ \t]*struct[ \t]+work_struct[ \t]+" + n + r"[ \t]*;[^\n]*\n", "",
                      text, count=1, flags=re.M)
        text = re.sub(r"^[ \t]*\*[ \t]*@" + n + r":.*\n(?:[ \t]*\*[ \t]+(?!@)\S.*\n)*", "",
                      text, count=1, flags=re.M)
    return text
