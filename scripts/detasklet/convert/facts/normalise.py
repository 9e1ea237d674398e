# SPDX-License-Identifier: GPL-2.0-only
"""Stage 2: two uses of a tasklet's members that have a one-for-one
form, written in that form before the facts are taken and spatch runs.

- An open-coded init: `E.func = F; E.data = D;` (either order, nothing but
  blanks between) is what tasklet_init(&E, F, D) does to a tasklet whose
  other members are zero. A callback of struct tasklet_struct * cast to
  func and given the tasklet's own address as data is tasklet_setup(&E, F):
  the callback gets the same pointer, through its own type. The rules then
  convert the call like any other init.
- A state word printed by a log call: `E.state` as a whole argument of
  printk() or a dev_/pr_/netdev_ log call becomes
  `(unsigned long)work_busy(&E)`. work_busy() reports a pending run in
  bit 0 and a running one in bit 1, the bits TASKLET_STATE_SCHED and
  TASKLET_STATE_RUN had; a log line only reports the value.

Any other use of the members stays, and convert.facts.refusals refuses it. The
kernel tree is not touched: the new text is what the analyses and spatch
read, and the patch is still made against the file as it is.
"""

from __future__ import annotations

import re

from ...ctext.lex import function_spans, line_of, mask, paren_end
from ...ctext.tasklet import takes_tasklet

# `E.func = F;` or `E->data = D;` at the start of a statement.
_ASSIGN_RE = re.compile(r"(?<![\w.>\]\)])(?P<lhs>[A-Za-z_][\w.\[\]>-]*?)\s*(?P<op>\.|->)\s*"
                        r"(?P<member>func|data)\s*=(?!=)\s*(?P<rhs>[^;{}]+?)\s*;")
# A cast of a function to func's type: (void (*)) or (void (*)(unsigned long)).
_FUNC_CAST_RE = re.compile(r"^\(\s*void\s*\(\s*\*\s*\)\s*(?:\(\s*unsigned\s+long\s*\))?\s*\)\s*")
_LOG_CALL_RE = re.compile(
    r"\b(?:printk|pr_(?:emerg|alert|crit|err|warn|notice|info|debug|devel|cont)"
    r"|(?:dev|netdev)_(?:emerg|alert|crit|err|warn|notice|info|dbg))\s*\(")


def _item(lhs: str, op: str) -> str:
    """The tasklet of `lhs op member` as the pointer the API takes."""
    return lhs if op == "->" else "&" + lhs


def _last_name(lhs: str) -> str:
    return re.findall(r"\w+", lhs)[-1]


def _init_call(text: str, code: str, first: re.Match[str], second: re.Match[str],
               names: set[str]) -> tuple[str, list[str], str, str] | None:
    """The tasklet_init()/tasklet_setup() the two assignments amount to: the
    function, its arguments, the callback when it is tasklet_setup()'s
    ("" for tasklet_init()) and the cast it was stored through; None when
    they are not one open-coded init of a tasklet of names."""
    lhs = re.sub(r"\s+", "", first.group("lhs"))
    if lhs != re.sub(r"\s+", "", second.group("lhs")) or first.group("op") != second.group(
            "op") or {first.group("member"), second.group("member")} != {"func", "data"} \
            or _last_name(lhs) not in names:
        return None
    func, data = (first, second) if first.group("member") == "func" else (second, first)
    fn_text = text[func.start("rhs"):func.end("rhs")]
    data_text = " ".join(text[data.start("rhs"):data.end("rhs")].split())
    cast = _FUNC_CAST_RE.match(fn_text)
    fn = fn_text[cast.end():].strip() if cast else fn_text.strip()
    if not re.fullmatch(r"[A-Za-z_]\w*", fn):
        return None
    item = _item(first.group("lhs").strip(), first.group("op"))
    if cast:
        own = re.sub(r"\s+", "", data_text) == "(unsignedlong)" + re.sub(r"\s+", "", item)
        if not (own and takes_tasklet(code, fn)):
            return None
        return "tasklet_setup", [item, fn], fn, " ".join(cast.group(0).split())
    return "tasklet_init", [item, fn, data_text], "", ""


def _init_notes(setup: dict[str, tuple[str, str]], init: list[str]) -> list[str]:
    """One note for the open-coded inits of tasklet_init()'s form (init:
    the functions holding them) and one per callback of tasklet_setup()'s
    form (setup: callback -> (function, the cast it was stored through))."""
    notes = []
    if init:
        fns = " and ".join(f"{f}()" for f in dict.fromkeys(init))
        each = "the work item" if len(init) == 1 else "each work item"
        notes.append(f"The tasklet{'s were' if len(init) > 1 else ' was'} set up in {fns} "
                     "by assigning .func and .data, which is what tasklet_init() does on "
                     f"zeroed memory; INIT_WORK() sets up {each} there.")
    notes += [f"The tasklet was set up in {fn}() by assigning .func and .data: {cb}() takes "
              f"a pointer to the tasklet and was stored in .func, whose callback takes an "
              f"unsigned long, through a {cast} cast, and .data held the tasklet's own "
              "address. INIT_WORK() sets up the work item there, and the work function gets "
              "the same pointer through its own type, with no call through a mismatched "
              "function type."
              for cb, (fn, cast) in setup.items()]
    return notes


def _enclosing(code: str, i: int) -> str:
    """The name of the function whose body holds offset i ("" at file scope)."""
    return next((n for s, e, n in function_spans(code) if s <= i < e), "")


def _call_text(fn: str, args: list[str], indent: str, width: int = 80) -> str:
    """fn(args); laid out as the kernel does: filled to width, continuation
    lines aligned after the '('."""
    col = len(indent.expandtabs(8)) + len(fn) + 1
    cont = "\t" * (col // 8) + " " * (col % 8)
    out = fn + "("
    for k, a in enumerate(args):
        piece = a + (", " if k + 1 < len(args) else ");")
        if k and col + len(piece.rstrip()) > width:
            out = out.rstrip() + "\n" + cont
            col = len(cont.expandtabs(8))
        out += piece
        col += len(piece)
    return out


def open_coded_inits(text: str, names: set[str]) -> tuple[str, list[str]]:
    """text with each open-coded init of a tasklet of names written as the
    API call, and a note per init."""
    code = mask(text)
    found = list(_ASSIGN_RE.finditer(code))
    out: list[str] = []
    setup: dict[str, tuple[str, str]] = {}
    init: list[str] = []
    last = 0
    i = 0
    while i + 1 < len(found):
        a, b = found[i], found[i + 1]
        call = _init_call(text, code, a, b, names) \
            if not text[a.end():b.start()].strip() else None
        if not call:
            i += 1
            continue
        line = text[text.rfind("\n", 0, a.start()) + 1:]
        indent = line[:len(line) - len(line.lstrip(" \t"))]
        out += [text[last:a.start()], _call_text(call[0], call[1], indent)]
        fn = _enclosing(code, a.start()) or f"line {line_of(text, a.start())}"
        if call[2]:
            setup[call[2]] = (fn, call[3])
        else:
            init.append(fn)
        last = b.end()
        i += 2
    out.append(text[last:])
    return "".join(out), _init_notes(setup, init)


def logged_states(text: str, names: set[str]) -> tuple[str, list[str]]:
    """text with each `E.state` / `E->state` of a tasklet of names that is
    a whole argument of a log call read with work_busy() instead, and a
    note per function."""
    if not names:
        return text, []
    code = mask(text)
    state = re.compile(r"(?<=[(,])(\s*)([A-Za-z_][\w.\[\]>-]*?)\s*(\.|->)\s*state(\s*)(?=[,)])")
    edits: list[tuple[int, int, str]] = []
    where: list[str] = []
    for call in _LOG_CALL_RE.finditer(code):
        for m in state.finditer(code, call.end() - 1, paren_end(code, call.end())):
            lhs = re.sub(r"\s+", "", m.group(2))
            if _last_name(lhs) not in names:
                continue
            edits.append((m.start(2), m.end(4) - len(m.group(4)),
                          f"(unsigned long)work_busy({_item(lhs, m.group(3))})"))
            fn = _enclosing(code, m.start())
            where.append(f"{fn}()" if fn else f"line {line_of(text, m.start())}")
    for s, e, new in reversed(edits):
        text = text[:s] + new + text[e:]
    notes = [f"{w} printed the tasklet's state word; it prints work_busy() instead, whose "
             "bit 0 (pending) and bit 1 (running) are where TASKLET_STATE_SCHED and "
             "TASKLET_STATE_RUN were." for w in dict.fromkeys(where)]
    return text, notes


def normalised(text: str, names: set[str]) -> tuple[str, list[str]]:
    """Both rewrites of this module on text, and their notes."""
    text, inits = open_coded_inits(text, names)
    text, logged = logged_states(text, names)
    return text, inits + logged
