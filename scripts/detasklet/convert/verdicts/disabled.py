# SPDX-License-Identifier: GPL-2.0-only
"""An item declared disabled and enabled once at init, before anything can
queue it.

A work item cannot be declared disabled. DECLARE_TASKLET_DISABLED*() keeps
the callback from running until the enable; when nothing can queue the
item before that enable, no run is ever held back, and the item declared
enabled (DECLARE_WORK()) with the enable gone does the same. That is
proven here, never assumed from names:

- the item is a variable of file scope, every use of it is a tasklet call
  on &item, and it has exactly one tasklet_enable() and no disable;
- that enable is in the module's init (module_init() or an initcall),
  which runs once, and on every path of it: a statement of the function's
  own block, with no goto before it to a label after it;
- every queue of the item (tasklet_schedule/hi_schedule) comes after the
  enable: in the init after it, or in a static function whose every use
  is one of those (the item's own callback counts its declaration as one:
  it runs once queued), or a static struct whose every use is (an ops
  table or a driver registered by the init after the enable).

Anything else keeps the file unconverted, with the use that is not
proven (an enable at probe, a second enable, a queue from a function the
module exports ...).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...ctext.lex import block_at, function_spans, line_start
from ...ctext.tasklet import DISABLED_DECL_RE as DECL_RE, declared_enabled
from .analyses import Facts
from .balance import _chain, _LABEL_RE

_STATIC_VAR_RE = re.compile(r"\bstatic\s+(?:const\s+)?struct\s+\w+\s+(?:const\s+)?(\w+)"
                            r"\s*(?:\[[^\]=]*\]\s*)?=\s*\{")
_INITCALL = ("module_init", "initcall")


@dataclass
class Declared:
    path: str
    item: str
    callback: str
    old: bool               # DECLARE_TASKLET_DISABLED_OLD


def declared(codes: dict[str, str]) -> list[Declared]:
    """The items of the group's masked codes declared disabled at file scope."""
    out = []
    for path, code in codes.items():
        spans = function_spans(code)
        for m in DECL_RE.finditer(code):
            if not any(a <= m.start() < b for a, b, _ in spans):
                out.append(Declared(path, m.group(2), m.group(3), bool(m.group(1))))
    return out


class _After:
    """What runs only after the enable at epos of function init in path."""

    def __init__(self, f: Facts, path: str, init: str, epos: int, item: str) -> None:
        self.f, self.path, self.init, self.epos, self.item = f, path, init, epos, item
        self.ok: set[str] = set()

    def use_ok(self, path: str, code: str, pos: int, seen: frozenset[str]) -> str:
        """"" when the use at pos of code runs only after the enable, else why not."""
        for a, b, fn in function_spans(code):
            if a <= pos < b:
                if fn == self.init:
                    return "" if path == self.path and pos > self.epos else \
                        f"{fn}() names it before the enable"
                return self.function(fn, seen)
        for m in _STATIC_VAR_RE.finditer(code):
            body = block_at(code, m.end() - 1) or ""
            if m.end() - 1 <= pos < m.end() - 1 + len(body):
                return self.name(m.group(1), seen, var=True)
        stmt = code[max(code.rfind(";", 0, pos), code.rfind("}", 0, pos)) + 1:code.find(";", pos)]
        own = DECL_RE.search(stmt)
        if own and own.group(2) == self.item:
            return ""                       # the item's callback: it runs once queued
        lead = code[:pos].rstrip()
        if "=" not in stmt and "{" not in stmt and lead and (lead[-1] in "*_" or
                                                            lead[-1].isalnum()):
            return ""                       # a prototype or an extern declaration
        if re.search(r"\bmodule_exit\s*\(\s*$", lead):
            return ""                       # runs only once the init has succeeded
        return (f"the file-scope code at line {code.count(chr(10), 0, pos) + 1} names it "
                f"({' '.join(stmt.split())[:60]})")

    def function(self, fn: str, seen: frozenset[str]) -> str:
        if fn in self.ok:
            return ""
        if fn in seen:
            return f"{fn}() is reached through itself"
        if fn not in self.f.static:
            return f"{fn}() is not static: code outside the group can call it"
        why = self.name(fn, seen | {fn})
        if not why:
            self.ok.add(fn)
        return why and f"{fn}(): {why}"

    def name(self, name: str, seen: frozenset[str], var: bool = False) -> str:
        """"" when every use of name (but its definition) runs after the enable."""
        if var and name in seen:
            return ""
        seen = seen | {name}
        pat = re.compile(r"\b" + re.escape(name) + r"\b")
        for path, code in self.f.codes.items():
            spans = function_spans(code)
            for m in pat.finditer(code):
                if any(fn == name and a <= m.start() < b for a, b, fn in spans) \
                        or _defines(code, m, name, var):
                    continue
                why = self.use_ok(path, code, m.start(), seen)
                if why:
                    return why
        return ""


def _defines(code: str, m: re.Match[str], name: str, var: bool) -> bool:
    """Whether the match is name's own definition: a function's head (name
    followed by its parameters and a body), or the static struct's."""
    rest = code[m.end():m.end() + 400]
    if var:
        return bool(re.match(r"\s*(?:\[[^\]=]*\]\s*)?=\s*\{", rest))
    if not re.match(r"\s*\(", rest):
        return False
    close = rest.find(")")
    nxt = rest[close + 1:].lstrip() if close >= 0 else ""
    return nxt.startswith("{") or bool(re.match(r"(?:__\w+(?:\([^)]*\))?\s*)+\{", nxt))


def _other_use(d: Declared, mine: list, codes: dict[str, str]) -> str:
    """Where the group names the item other than in its declaration and
    its tasklet calls ('line 965 of x.c (mlc->tasklet = &item)')."""
    at = {(s.path, s.line) for s in mine}
    for path, code in codes.items():
        for m in re.finditer(r"\b" + re.escape(d.item) + r"\b", code):
            line = code.count("\n", 0, m.start()) + 1
            text = code.split("\n")[line - 1]
            if (path, line) not in at and not DECL_RE.search(text):
                return f"line {line} of {path} ({' '.join(text.split())})"
    return "code other than the tasklet calls on it"


def _init_reg(fn: str, f: Facts) -> str:
    reg = f.regs.get(fn)
    if reg and reg.kind == "start" and any(k in reg.how for k in _INITCALL):
        return reg.how
    return ""


def decide(d: Declared, sites: list, f: Facts) -> tuple[object | None, str]:
    """(the enable site to drop, "") when d is proven enabled at init before
    anything can queue it; (None, why not) otherwise."""
    mine = [s for s in sites if s.item == d.item]
    named = sum(len(re.findall(r"\b" + re.escape(d.item) + r"\b", c)) for c in f.codes.values())
    odd = [s for s in mine if re.sub(r"\s", "", s.expr) != "&" + d.item or s.in_macro]
    if odd or named != len(mine) + 1:
        where = f"{odd[0].api}({odd[0].expr}) at line {odd[0].line}" if odd else \
            _other_use(d, mine, f.codes)
        return None, f"{where} names {d.item}: what it does with the item is not followed"
    ens = [s for s in mine if s.api == "tasklet_enable"]
    dis = [s for s in mine if s.api.startswith("tasklet_disable")]
    if len(ens) != 1 or dis:
        return None, (f"{d.item} has {len(ens)} enable{'' if len(ens) == 1 else 's'} and "
                      f"{len(dis)} disable{'' if len(dis) == 1 else 's'}: only one enable and "
                      "no disable is proven to leave nothing held back")
    e = ens[0]
    how = _init_reg(e.function, f)
    if not how or e.path not in f.codes:
        return None, (f"its enable is in {e.function or 'file-scope code'}(), which is not "
                      "the module's init: it may run more than once, or after a queue")
    code = f.codes[e.path]
    epos = line_start(code, e.line) + code.split("\n")[e.line - 1].find("tasklet_enable")
    span = next((a, b) for a, b, fn in function_spans(code) if a <= epos < b)
    body, rel = code[span[0]:span[1]], epos - span[0]
    cond = _chain(body, rel)
    # a goto before it to a label after it skips it; one after it to a
    # label before it runs it twice
    gotos = [m.group(1) for m in _LABEL_RE.finditer(body, rel)
             if re.search(r"\bgoto\s+" + m.group(1) + r"\s*;", body[:rel])] + \
        [m.group(1) for m in _LABEL_RE.finditer(body, 0, rel)
         if re.search(r"\bgoto\s+" + m.group(1) + r"\s*;", body[rel:])]
    if cond or gotos:
        return None, (f"the enable in {e.function}() does not run on every path of it ("
                      + (f"under {cond[0]}" if cond else f"a goto {gotos[0]} jumps around it")
                      + ")")
    after = _After(f, e.path, e.function, epos, d.item)
    for s in mine:
        if s.api not in ("tasklet_schedule", "tasklet_hi_schedule"):
            continue
        c = f.codes[s.path]
        why = after.use_ok(s.path, c, line_start(c, s.line), frozenset())
        if why:
            return None, (f"{s.api}() at line {s.line} of {s.path} can queue it before "
                          f"{e.function}() enables it ({why})")
    e.replacement, e.verdict, e.analysis = "removed", "exact", "enabled-at-init"
    fns = sorted({s.function for s in mine if s.api.endswith("schedule")})
    e.why = (f"{d.item} is declared disabled and this is its one enable, in {e.function}(), "
             f"{how}, on every path of it; every function that queues it ("
             + ", ".join(f"{fn}()" for fn in fns) + ") runs only after that enable: "
             f"{e.function}() itself after it, or reached only through the item's "
             f"callback or what {e.function}() registers after it. No run is ever held back, "
             "so the item declared enabled (DECLARE_WORK()) does the same, and the enable goes")
    return e, ""


def plan(sites: list, codes: dict[str, str], f: Facts) -> tuple[set[tuple[str, str]],
                                                              dict[str, str]]:
    """(the (path, item) declarations that become enabled, the refusals by
    path) of the group's items declared disabled."""
    ok: set[tuple[str, str]] = set()
    refused: dict[str, str] = {}
    for d in declared(codes):
        e, why = decide(d, sites, f)
        if e is None:
            refused.setdefault(d.path, f"DECLARE_TASKLET_DISABLED{'_OLD' if d.old else ''}"
                               f"({d.item}): a work item cannot be declared disabled, and it "
                               f"is not proven that nothing is held back by it: {why}")
        else:
            ok.add((d.path, d.item))
    return ok, refused


def mark(text: str, items: list[str]) -> str:
    """text with the declarations of items as enabled tasklets, which the
    rules make DECLARE_WORK()."""
    for it in items:
        text = declared_enabled(text, it)
    return text
