# SPDX-License-Identifier: GPL-2.0-only
"""The struct type of the object whose pointer member is called or set.

A call through a pointer member (`tty->ops->write(...)`) runs what was
stored into that member of an object of the same struct type: the
`.write = ppp_sync_write` of a `struct tty_ldisc_ops` initialiser is not
what `tty->ops->write()` runs when `tty->ops` is a `struct
tty_operations *`. Read from masked code:

- members(): for each `struct tag { ... }` definition, the struct type of
  each member declared as one or a pointer to one (`struct foo_ops
  *ops;`, `struct virt_dma_chan vc;`); a member declared with two types
  is not known; included(): those of the headers a group's files
  include, where the kernel's own structs are (struct tty_struct).
- Declarations: the struct type a parameter, a local or a global of a
  name is declared with, where a place sees it.
- chain_struct(): the struct type of a plain chain (`tty->ops`,
  `c->vc`, `q[i].ops`): its first name's declaration, then each member's
  type from members().
- initialiser_struct(): the struct type of the initialiser whose
  designator `.m = fn` is at a place (`static struct foo_ops x = {`, a
  compound literal `(struct foo_ops){`, a nested `.ops = {`, an element
  of an array of structs).
"" is "not known" everywhere: a typedef name, a member of a struct
defined in no file read, a cast, a macro.
"""

from __future__ import annotations

import re
from pathlib import Path

from .decls import base_struct
from .includes import Resolver
from .lex import block_at, call_args, function_spans, mask
from .tasklet import schedule_of
from .sources import read_text

_STRUCT_DEF_RE = re.compile(r"\bstruct\s+(\w+)\s*(?:__\w+(?:\([^()]*\))?\s*)*\{")
# struct tag *a, b[4];  (the declarators, for members())
_MEMBER_RE = re.compile(r"\bstruct\s+(\w+)\s+(?!\{)([^;{}]*?)\s*;")
# the head of an initialiser: `struct tag name[...] ... = {` or a compound
# literal `(struct tag) {`
_INIT_HEAD_RE = re.compile(r"\bstruct\s+(\w+)\s+(?:const\s+)?\w+\s*(?:\[[^\]]*\]\s*)*"
                           r"(?:__\w+(?:\([^()]*\))?\s*)*=\s*$")
_LITERAL_HEAD_RE = re.compile(r"\(\s*(?:const\s+)?struct\s+(\w+)\s*\)\s*$")
_DESIGNATOR_HEAD_RE = re.compile(r"(?:^|[{,])\s*\.\s*(\w+)\s*(?:\[[^\]]*\]\s*)*=\s*$")
_ELEMENT_HEAD_RE = re.compile(r"(?:^|[{,])\s*(?:\[[^\]]*\]\s*=\s*)?$")


def _flat_body(body: str) -> str:
    """A struct body (its braces included) with what declares no member of
    it blanked: a function pointer's parameters, and the body of a nested
    struct (`struct desc_info { ... } rx_desc, tx_desc;` then reads as
    `struct desc_info rx_desc, tx_desc;`; an unnamed one's members are
    the outer struct's only when it declares no name)."""
    while True:
        flat = re.sub(r"\([^()]*\)", lambda p: " " * len(p.group(0)), body)
        if flat == body:
            break
        body = flat
    inner = body[1:-1]
    while True:
        m = re.search(r"\{[^{}]*\}", inner)
        if not m:
            break
        named = re.search(r"\b(?:struct|union)\s+\w+\s*$", inner[:m.start()])
        anonymous = re.match(r"\s*;", inner[m.end():])
        keep = m.group(0)[1:-1] if anonymous and not named else " " * (len(m.group(0)) - 2)
        if not named and not anonymous:       # struct { ... } name: not known
            inner = inner[:m.start()] + "@" * len(m.group(0)) + inner[m.end():]
            continue
        inner = inner[:m.start()] + " " + keep + " " + inner[m.end():]
    return "{" + inner + "}"


def members(code: str) -> dict[str, dict[str, str]]:
    """tag -> member -> the struct tag of the member (a struct or a
    pointer to one), for each struct definition of masked code; a member
    declared twice with two types maps to "" (not known)."""
    out: dict[str, dict[str, str]] = {}
    for m in _STRUCT_DEF_RE.finditer(code):
        body = block_at(code, m.end() - 1)
        if body is None:
            continue
        own = out.setdefault(m.group(1), {})
        for d in _MEMBER_RE.finditer(_flat_body(body), 1):
            tag = d.group(1)
            for name in re.findall(r"(\w+)\s*(?:\[[^\]]*\]\s*)*(?::\s*\d+\s*)?(?=,|$)",
                                   d.group(2)):
                if name not in ("const", "volatile") and not name.startswith("__"):
                    own[name] = tag if own.get(name, tag) == tag else ""
    return out


def merged(codes: list[dict[str, dict[str, str]]]) -> dict[str, dict[str, str]]:
    """members() of several files as one: a member two definitions of a
    tag give two types is not known."""
    out: dict[str, dict[str, str]] = {}
    for one in codes:
        for tag, ms in one.items():
            own = out.setdefault(tag, {})
            for name, t in ms.items():
                own[name] = t if own.get(name, t) == t else ""
    return out


def included(kdir: Path, files: list[str], res: Resolver,
             seen: dict[str, dict[str, dict[str, str]]]) -> dict[str, dict[str, str]]:
    """members() of the headers of the tree that files include directly,
    merged (`tty->ops` of a `struct tty_struct *` is read in
    <linux/tty.h>); seen caches each header's across calls."""
    out = []
    for rel in sorted({h for f in files for h in res.of(f)} - set(files)):
        if rel not in seen:
            try:
                seen[rel] = members(mask(read_text(kdir / rel)))
            except OSError:
                seen[rel] = {}
        out.append(seen[rel])
    return merged(out)


def _enclosing_open(code: str, pos: int) -> int:
    """The offset of the '{' not closed before pos; -1 when none."""
    depth = 0
    for j in range(pos - 1, -1, -1):
        ch = code[j]
        if ch == "}":
            depth += 1
        elif ch == "{":
            if depth == 0:
                return j
            depth -= 1
    return -1


_DECL_RE = re.compile(r"\bstruct\s+(\w+)\s*(?:\*|\bconst\b|\b__\w+\b|\s)*(?<!\w)(\w+)\s*"
                      r"(?:\[[^\]]*\]\s*)*(?=[,;=)\[])")
_PP_RE = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)


class Declarations:
    """The struct type of each variable of masked code that is declared
    as a struct or a pointer to one, with the stretch of code it is seen
    in: a global to the end of the file, a parameter in its function's
    body, a local to the end of its block. A member of a struct body and
    a prototype's parameter declare no variable."""

    def __init__(self, code: str) -> None:
        flat = _PP_RE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), code)
        self._by_name: dict[str, list[tuple[int, int, str]]] = {}
        marks = sorted([(m.start(), m) for m in _DECL_RE.finditer(flat)], key=lambda x: x[0])
        stack: list[int] = []       # open braces, innermost last
        closes: dict[int, int] = {}
        parens, k, pending = 0, 0, []
        for i, ch in enumerate(flat):
            while k < len(marks) and marks[k][0] == i:
                m = marks[k][1]
                pending.append((m, stack[-1] if stack else -1, parens))
                k += 1
            if ch == "{":
                stack.append(i)
            elif ch == "}" and stack:
                closes[stack.pop()] = i
            elif ch == "(":
                parens += 1
            elif ch == ")":
                parens = max(0, parens - 1)
        for m, inner, depth in pending:
            end = self._scope_end(flat, m, inner, depth, closes)
            if end > 0:
                self._by_name.setdefault(m.group(2), []).append((m.start(), end, m.group(1)))

    @staticmethod
    def _scope_end(flat: str, m: re.Match[str], inner: int, depth: int,
                   closes: dict[int, int]) -> int:
        """Where the declaration m stops being seen; 0 when it declares
        no variable (a member, a prototype's parameter)."""
        if inner >= 0:
            head = flat[max(0, inner - 200):inner].rstrip()
            # a struct or union body, or an initialiser: members, no variable
            if re.search(r"\b(?:struct|union)\s*\w*\s*$|=\s*$", head) and depth == 0:
                return 0
            return closes.get(inner, len(flat))
        if depth == 0:
            return len(flat)        # a global
        # a parameter: seen in the body after the head, if one follows
        j = m.end()
        par = depth
        while j < len(flat):
            ch = flat[j]
            par += {"(": 1, ")": -1}.get(ch, 0)
            if par <= 0 and ch in ";{":
                return closes.get(j, len(flat)) if ch == "{" else 0
            j += 1
        return 0

    def at(self, pos: int, name: str) -> str:
        """The struct tag name is declared with where pos sees it; ""
        when no declaration of it as a struct is seen there."""
        seen = [(start, tag) for start, end, tag in self._by_name.get(name, ())
                if start < pos <= end]
        return max(seen)[1] if seen else ""


def chain_struct(decls: Declarations, pos: int, chain: str,
                 types: dict[str, dict[str, str]]) -> str:
    """The struct tag of the object a plain chain (`tty->ops`, `c->vc`,
    `q[i].ops`, `dev`) denotes at pos of masked code; "" when a step is
    not known."""
    parts = re.split(r"->|\.", re.sub(r"\[[^\]\[]*\]", "", re.sub(r"\s+", "", chain)))
    if not parts or not re.fullmatch(r"[A-Za-z_]\w*", parts[0]):
        return ""
    tag = decls.at(pos, parts[0])
    for p in parts[1:]:
        if not tag:
            return ""
        tag = types.get(tag, {}).get(p, "")
    return tag


def initialiser_struct(code: str, pos: int, types: dict[str, dict[str, str]]) -> str:
    """The struct tag of the initialiser a designator at pos (`.m = fn`)
    belongs to; "" when not known (a typedef, a macro)."""
    brace = _enclosing_open(code, pos)
    if brace < 0:
        return ""
    head = code[max(0, brace - 300):brace]
    m = _INIT_HEAD_RE.search(head) or _LITERAL_HEAD_RE.search(head)
    if m:
        return m.group(1)
    m = _DESIGNATOR_HEAD_RE.search(head)
    if m:        # .ops = { ... }: the type of member ops of the outer one
        outer = initialiser_struct(code, brace - (len(head) - m.start(1)), types)
        return types.get(outer, {}).get(m.group(1), "") if outer else ""
    if _ELEMENT_HEAD_RE.search(head) and code[:brace].rstrip().endswith(("{", ",", "=")):
        return initialiser_struct(code, brace, types)     # an element of an array
    return ""


def owner_struct(decls: Declarations, pos: int, expr: str,
                 types: dict[str, dict[str, str]]) -> str:
    """"struct tag" of the object whose last member a tasklet expression
    names through a chain (`&c->vc.task`: the struct virt_dma_chan of
    k3dma's c->vc, not the task of another struct), at pos of masked
    code; "" when a step is not known."""
    e = re.sub(r"^[\s(&]+|[\s)]+$", "", expr)
    m = re.fullmatch(r"(.+?)\s*(?:->|\.)\s*\w+", e)
    tag = chain_struct(decls, pos, m.group(1), types) if m else ""
    return f"struct {tag}" if tag else ""


def object_struct(code: str, pos: int, expr: str, spans: list[tuple[int, int, str]],
                  cache: dict[str, tuple[Declarations, dict[str, dict[str, str]]]]) -> str:
    """"struct tag" of the object whose member expr names at pos of masked
    code: its plain name's declaration in the function (decls.base_struct),
    else the chain before its last member (owner_struct(): &c->vc.task);
    "" when not known. cache: the caller's, for this code's declarations
    and struct definitions, read once."""
    tag = base_struct(code, pos, expr, spans)
    if tag or not re.search(r"->|\.", expr):
        return tag
    if "code" not in cache:
        cache["code"] = (Declarations(code), members(code))
    decls, types = cache["code"]
    return owner_struct(decls, pos, expr, types)


def schedule_structs(code: str, fn: str, item: str) -> set[str]:
    """The struct ("struct tag") of the object of each tasklet_schedule()
    or tasklet_hi_schedule() of item in function fn of masked code, ""
    for one not known: irdma's irdma_irq_handler() queues the
    dpc_tasklet of its struct irdma_pci_f, not that of struct irdma_ceq."""
    spans = function_spans(code)
    here = next(((a, b) for a, b, n in spans if n == fn), None)
    if here is None:
        return {""}
    out: set[str] = set()
    cache: dict[str, tuple[Declarations, dict[str, dict[str, str]]]] = {}
    for m in schedule_of(item).finditer(code, here[0], here[1]):
        args = call_args(code, code.index("(", m.start()) + 1)
        out.add(object_struct(code, m.start(), args[0] if args else "", spans, cache))
    return out or {""}
