# SPDX-License-Identifier: GPL-2.0-only
"""The callbacks that tasklet_init() calls register, read from masked code
(a patch's removed lines, series/initnote.py): each one's name, the cast
it was passed through ("" when none) and the type of its one parameter
as its definition or prototype there has it ("" when the code has
neither)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .lex import call_args, paren_end

_INIT_RE = re.compile(r"\btasklet_init\s*\(")
_NAME_RE = re.compile(r"&?\s*([A-Za-z_]\w*)")
# words that end a type rather than name a parameter: "unsigned long",
# "void *" alone in a prototype
_TYPE_WORDS = {"long", "int", "short", "char", "unsigned", "signed", "void", "ulong",
               "u_long", "u32", "u64", "uintptr_t"}


@dataclass(frozen=True)
class InitCallback:
    name: str
    cast: str     # "(void *)", "" when passed as it is
    param: str    # "unsigned long", "void *", "" when unknown


def _callback(arg: str) -> tuple[str, str]:
    """(name, cast) of tasklet_init()'s callback argument; ("", "") when it
    is not a function name, cast or not."""
    arg, cast = arg.strip(), ""
    while arg.startswith("("):
        end = paren_end(arg, 1)
        inner = arg[1:end - 1].strip()
        rest = arg[end:].strip()
        if not rest:            # (name): parentheses around the name
            arg = inner
            continue
        cast += " ".join(arg[:end].split())
        arg = rest
    m = _NAME_RE.fullmatch(arg)
    return (m.group(1), cast) if m else ("", "")


def param_type(code: str, fn: str) -> str:
    """The type of the one parameter of fn's definition or prototype in
    code ("unsigned long", "void *"); "" when code has neither."""
    m = re.search(r"\bvoid\s+" + re.escape(fn) + r"\s*\(([^()]*)\)", code)
    if not m:
        return ""
    words = " ".join(m.group(1).split())
    last = re.search(r"\b(\w+)$", words)
    if last and last.group(1) not in _TYPE_WORDS and words[:last.start()].strip():
        words = words[:last.start()].strip()
    return re.sub(r"\s*\*", " *", words).strip()


def init_callbacks(code: str) -> list[InitCallback]:
    """The callbacks of code's tasklet_init() calls, each once, in order."""
    out: dict[str, InitCallback] = {}
    for m in _INIT_RE.finditer(code):
        args = call_args(code, m.end())
        if len(args) < 2:
            continue
        name, cast = _callback(args[1])
        if name and name not in out:
            out[name] = InitCallback(name, cast, param_type(code, name))
    return list(out.values())
