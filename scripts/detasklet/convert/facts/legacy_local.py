# SPDX-License-Identifier: GPL-2.0-only
"""Stage 2: legacy callbacks whose unsigned long argument cannot become
from_work(): they keep their body and get the value back as a local.

tasklet_init(&E->f, cb, data) stores data in the tasklet, and the core
calls cb(data). The callbacks that convert.facts.legacy cannot prove to read
only the container keep their body, and their old argument becomes a local
variable, first in the body (cocci/22-legacy-data.cocci):

- "container": every init passes the container of f, but the body reads
  data in other ways too (he.c prints it, nitrox casts it through
  uintptr_t): unsigned long data = (unsigned long)container_of(work, C, f);
  the same value, since container_of() of the work item is that container.
- "member": every init passes &E->P, the address of a member of the
  tasklet's own container E (caam: &jrp->tasklet_params): unsigned long
  data = (unsigned long)&container_of(work, C, f)->P; the same address,
  with no field.
- "mirror": every init passes a value that the same function stored, just
  before and unconditionally, in a member g of the tasklet's own container
  (jmb38x_ms: host->msh = msh; ... tasklet_init(&host->notify, cb, msh)),
  and nothing else in the group writes or takes the address of g:
  unsigned long data = (unsigned long)container_of(work, C, f)->g; the
  same value, with no field.
- "field": some init passes another value (a device, a member, a pointer
  read at init time): the value is stored, where the tasklet stored it,
  in a new field f_data of the container, next to the work item:
  E->f_data = data; INIT_WORK(&E->f, cb); and the callback reads
  unsigned long data = container_of(work, C, f)->f_data; The same value
  as the tasklet's own ->data, which nothing else writes (a file that
  touches ->data is refused as internals), and no bigger: a work_struct
  plus one unsigned long is the size of a tasklet_struct.

Both need one struct C that declares the plain member f, the only
tasklet named f in the group, a definition cb(unsigned long d) in the
group, and no use of cb but its inits, definition and prototypes: a
direct call would still pass an unsigned long, unless the work item can
run a new cb_work() that calls cb with that value (the wrapper). The
justification is also the reviewer note that reaches the commit message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from ...ctext.lex import block_at, function_start, line_of
from ...ctext.tasklet import (INIT_CB_RE, INIT_PTR_RE, MEMBER_INIT_RE, any_declaration,
                              init_or_legacy_callback, member_declaration)
from .legacy import decl_re, def_re
from .legacy_path import published_path
from .legacy_data import (Site, drvdata_read, field_reason, member_path, member_pointer_read,
                          mirror_member, mirror_pointer_read, reads, void_pointer_read)
from .refusals import has_side_effect

_CAST_USE = r"\(\s*(?!void\s*\*)(?:const\s+)?(?:struct\s+)?\w+\s*\*\s*\)\s*"


@dataclass(frozen=True)
class LocalCb:
    kind: str        # "container", "member", "mirror" or "field"
    field: str       # the tasklet member f
    ctype: str       # the container type C, "struct x" or a typedef name
    param: str       # the old parameter name, now a local variable
    home: str        # the file that defines the callback
    # The new work function that calls cb, when cb is also called directly
    # or through a pointer and so keeps its unsigned long parameter; "" when
    # cb itself becomes the work function. Field kind only: a container
    # callback called directly is left to the from_work() rules.
    wrapper: str = ""
    # Member kind: every init passed the address of this member of the
    # tasklet's own container (caam: &jrp->tasklet_params), a fixed offset
    # from the object container_of() finds; no field is needed.
    path: str = ""
    # Mirror kind: the member g of the container that holds the data.
    mirror: str = ""
    # Container kind: the one read of the old argument is the declaration
    # 'struct C *p = (void *)d;' (switchtec, ntb, vmbus): p, which then
    # becomes 'struct C *p = from_work(p, work, f);' with no local
    # (convert.rewrite.fixups.fold_locals).
    fold: str = ""
    # Mirror kind: the type of that pointer, 'struct T' (the member's type).
    fold_type: str = ""
    # Mirror kind: the pointer q of 'struct C *q = dev_get_drvdata(fold);',
    # the one other use of fold, when the drvdata of that device is the
    # container (legacy_data.drvdata_read): q becomes from_work(q, work, f)
    # and fold's declaration goes (crypto4xx).
    drvdata: str = ""
    # Mirror kind whose member is a path g->h (legacy_path.published_path):
    # the name of the container's pointer that the fold declares first
    # (octeontx: struct otx_cptvf_wqe *wqe = from_work(wqe, work, twork)).
    via: str = ""
    # With via: 'struct T *x' when the path's first member is a void *
    # (legacy_path.PathRead.hop); the callback declares x = via->g first.
    hop: str = ""
    # Field kind: why no member of the container gives the data, in the
    # driver's terms (legacy_data.field_reason); "" when not known.
    need: str = ""

    def expr(self) -> str:
        of = f"container_of(work, {self.ctype}, {self.field})"
        if self.kind == "container":
            return f"(unsigned long){of}"
        if self.kind == "member":
            return f"(unsigned long)&{of}->{self.path}"
        if self.kind == "mirror" and self.hop:
            g, h = self.mirror.split("->")
            return f"(unsigned long)(({self.hop.split('*')[0].strip()} *){of}->{g})->{h}"
        if self.kind == "mirror":
            return f"(unsigned long){of}->{self.mirror}"
        return f"{of}->{self.field}_data"


def _declared_in_c(codes: dict[str, str], f: str) -> bool:
    """Whether the tasklet member f is declared in a .c file: its struct
    is then seen by that file alone, and no file around the group can
    write its members."""
    return any(p.endswith(".c") and any(member_declaration(f).match(c, m.start())
                                        for m in any_declaration(f).finditer(c))
               for p, c in codes.items())


def member_struct(codes: list[str], f: str) -> str:
    """The type of the one struct of the group that declares the plain
    member struct tasklet_struct f, or "" when there is not exactly one
    tasklet named f (a local variable, an array, a pointer, two structs)."""
    hits = [(c, m) for c in codes for m in any_declaration(f).finditer(c)]
    if len(hits) != 1 or not member_declaration(f).match(hits[0][0], hits[0][1].start()):
        return ""
    code, m = hits[0]
    return struct_at(code, m.start())


def struct_at(code: str, pos: int) -> str:
    """The type of the struct whose body holds offset pos of masked code,
    "struct tag" or a typedef name; "" when pos is not in a struct."""
    depth, i = 0, pos
    while i > 0:
        i -= 1
        if code[i] == "}":
            depth += 1
        elif code[i] == "{":
            if depth == 0:
                break
            depth -= 1
    else:
        return ""
    head = re.search(r"(typedef\s+)?struct\s*(\w*)\s*$", code[:i])
    if not head:
        return ""
    if head.group(2) and head.group(2) != "__packed":
        return f"struct {head.group(2)}"
    body = block_at(code, i)
    tail = re.match(r"\s*(\w+)\s*;", code[i + len(body):]) if head.group(1) and body else None
    return tail.group(1) if tail else ""


def _named_member(codes: list[str], name: str) -> bool:
    """Whether some code already names name as a member (x->name, x.name, or
    a declaration): the new field must not collide."""
    pat = re.compile(r"(?:->|\.)\s*" + name + r"\b|\b\w+\s+\**" + name + r"\s*[;\[]")
    return any(pat.search(c) for c in codes)


def _pointer_inits(codes: dict[str, str]) -> dict[str, str]:
    """file -> why, for a tasklet_init() whose callback is not a function
    name: megaraid_sas's instance->instancet->tasklet, an ops-table member
    set to a different function per controller family, some in files that
    name no tasklet API. Each would need the work_struct signature and its
    data read back; the tool does not follow a function pointer to the
    functions it is set to."""
    why: dict[str, str] = {}
    for f, code in codes.items():
        for m in INIT_PTR_RE.finditer(code):
            why.setdefault(f, f"tasklet_init() at line {line_of(code, m.start())}: its "
                           f"callback '{m.group(1)}' is a function pointer, not a function "
                           "name, so the functions it points to are not known")
    return why


def locals_for(codes: dict[str, str], legacy: dict[str, str],
               near: Callable[[str], dict[str, str]] = lambda g: {}
               ) -> tuple[dict[str, LocalCb], dict[str, str]]:
    """The legacy callbacks of a group (masked codes) that the
    local-variable form converts, and for the others that are not in
    legacy (the from_work() form) the reason, keyed by file. near(word):
    the masked files around the group that name word (the mirror form
    checks that they do not write the member)."""
    inits: dict[str, list[Site]] = {}
    for f, code in codes.items():
        for m in INIT_CB_RE.finditer(code):
            inits.setdefault(m.group(1), []).append((f, MEMBER_INIT_RE.match(code, m.start()),
                                                     m.start()))
    out: dict[str, LocalCb] = {}
    why = _pointer_inits(codes)
    for cb, sites in sorted(inits.items()):
        got = local_cb(codes, legacy, near, cb, sites)
        if isinstance(got, LocalCb):
            out[cb] = got
        elif got:
            why[got[0]] = got[1]
    return out, why


def local_cb(codes: dict[str, str], legacy: dict[str, str], near: Callable[[str], dict[str, str]],
             cb: str, sites: list[Site]) -> LocalCb | tuple[str, str] | None:
    """The local-variable form of callback cb, whose inits are sites; or
    (file, why) it has none; None when cb is left to the rules of the
    from_work() form (legacy) or to 21-legacy-nodata."""
    texts = list(codes.values())
    f0, _, at0 = sites[0]
    where = f"tasklet_init() of {cb}() at line {line_of(codes[f0], at0)}"
    defs = [(f, m) for f, c in codes.items() for m in def_re(cb).finditer(c)]
    body = block_at(codes[defs[0][0]], defs[0][1].end() - 1) if len(defs) == 1 else None
    if cb in legacy and (body is None or "." in legacy[cb]
                         or _clean(body, defs[0][1].group(1))):
        return None                      # the from_work() rules of 20-legacy-init
    if body is not None and not reads(defs[0][1].group(1)).search(body):
        return None                      # data never read: 21-legacy-nodata, or refused
    fields = {m.group("f") for _, m, _ in sites if m}
    if any(m is None for _, m, _ in sites) or len(fields) != 1:
        return f0, (f"{where}: its tasklet is not a plain member E->f or E.f in every "
                    "init (an array element, a pointer or a variable), so the data "
                    "has no field to live in")
    fld = fields.pop()
    ctype = member_struct(texts, fld)
    if not ctype:
        return f0, (f"{where}: no single struct of the group declares the tasklet "
                    f"member '{fld}', so the data has no field to live in")
    if body is None:
        return f0, f"{where}: {cb}(unsigned long) is not defined once in the group"
    other = _other_use(codes, cb)
    wrapper = ""
    if other:
        # A container callback is left to the from_work() rules, which
        # rewrite its direct calls too (legacy-direct-call); the reason
        # says why when they cannot.
        bad = "" if cb in legacy else _wrapper_blocker(codes, cb, sites, defs[0][0], ctype)
        if cb in legacy or bad:
            return other[0], (f"{where}: {cb}() is also used at line {other[1]} (a direct "
                              "call or a pointer to it would still pass an unsigned long)"
                              + (f", and a work function calling it cannot be added: {bad}"
                                 if bad else ""))
        wrapper = cb + "_work"
    container = cb in legacy
    # The field form names E twice (E->f_data = data; INIT_WORK(&E->f, cb)):
    # only when E has no side effect (no call, ++, --, assignment). The
    # member form drops the data, which names E: the same condition.
    busy = next((m for _, m, _ in sites if m and has_side_effect(m.group("e"))), None)
    if not container and busy:
        return f0, (f"{where}: its tasklet expression '{busy.group('e')}' would be "
                    "evaluated twice with the data field")
    path = "" if container else member_path([m for _, m, _ in sites if m])
    mirror = "" if container or path else mirror_member(
        codes, sites, ctype, (lambda g: {}) if _declared_in_c(codes, fld) else near)
    param = defs[0][1].group(1)
    pread = None
    if not (container or path or mirror or wrapper) and len(sites) == 1 \
            and ctype.startswith("struct "):
        pread = published_path(codes, sites[0], body, param, ctype.split()[-1], near)
        mirror = pread.path if pread else ""
    if not container and not path and not mirror and _named_member(texts, fld + "_data"):
        return f0, f"{where}: the name {fld}_data for its data field is taken"
    kind = ("container" if container else "member" if path else "mirror" if mirror
            else "field")
    fold, fold_type, drvdata = "", "", ""
    if pread:
        fold, fold_type = pread.pointer, pread.ptype
    elif container and not wrapper:
        fold = void_pointer_read(body, param, ctype)
    elif mirror and not wrapper:
        fold, fold_type = mirror_pointer_read(texts, body, param, mirror)
        drvdata = drvdata_read(codes, sites[0], body, fold, ctype) if fold.isidentifier() else ""
    elif path and not wrapper:
        fold, fold_type = member_pointer_read(texts, body, param, path)
    return LocalCb(kind, fld, ctype, param, defs[0][0], wrapper, path, mirror, fold, fold_type,
                   drvdata, pread.via if pread else "", pread.hop if pread else "",
                   field_reason(codes, body, param, ctype, sites) if kind == "field" else "")


def _wrapper_blocker(codes: dict[str, str], cb: str, sites: list[Site],
                     home: str, ctype: str) -> str:
    """Why the work function cb_work() cannot be added before the function
    of cb's first init, or "". It is static, so every init must be in the
    file that defines cb; cb and the container type must be declared
    before it; its name must be free in the group."""
    if any(f != home for f, _, _ in sites):
        return f"a tasklet_init() of it is in another file than {cb}()"
    name = cb + "_work"
    if any(re.search(r"\b" + name + r"\b", c) for c in codes.values()):
        return f"the name {name} is taken"
    code = codes[home]
    first = min(i for _, _, i in sites)
    at = function_start(code, first)
    if at < 0:
        return "its first tasklet_init() is not inside a function"
    depth = 0
    for d in re.findall(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|endif)\b", code[:first], re.M):
        depth += -1 if d == "endif" else 1
    if depth:
        # ccree: the member and the init are in the #else of COMP_IN_WQ; a
        # work function outside it would name a member that may not exist.
        return (f"its tasklet_init() at line {line_of(code, first)} is inside an #if, which "
                "the work function would have to repeat")
    if not decl_re({cb}).search(code[:at]):
        return f"{cb}() is not declared before the function of its first tasklet_init()"
    tag = ctype.split()[-1]
    body = (re.compile(r"\bstruct\s+" + tag + r"\s*\{") if ctype.startswith("struct ")
            else re.compile(r"\}\s*" + tag + r"\s*;"))
    m = body.search(code)
    if m and m.start() > at:
        return f"{ctype} is defined after the function of its first tasklet_init()"
    return ""


def _clean(body: str, d: str) -> bool:
    """Whether every read of d is a (T *)d cast, which the from_work()
    rules rewrite; otherwise the local-variable form keeps the body."""
    uses = len(reads(d).findall(body))
    casts = len(re.findall(_CAST_USE + d + r"\b", body))
    return uses == casts


def _other_use(codes: dict[str, str], cb: str) -> tuple[str, int] | None:
    ok = init_or_legacy_callback(cb)
    for f, code in codes.items():
        allowed = [(m.start(), m.end()) for m in ok.finditer(code)]
        for m in re.finditer(r"\b" + cb + r"\b", code):
            if not any(a <= m.start() < b for a, b in allowed):
                return f, line_of(code, m.start())
    return None


def note(c: LocalCb, cb: str) -> str:
    """Why the rewrite of cb is exact, for the reviewer (commit message)."""
    if c.wrapper and c.kind == "field":  # container callbacks go to from_work()
        return (f"{cb}() is also called directly, so it keeps its unsigned long parameter; "
                f"the work item runs the new {c.wrapper}(), which calls {cb}() with the "
                f"value tasklet_init() stored, now kept in the new field {c.field}_data, "
                "as the tasklet core did.")
    if c.kind == "member" and c.wrapper:
        return (f"{cb}() is also called directly, so it keeps its unsigned long parameter; "
                f"the work item runs the new {c.wrapper}(), which calls {cb}() with the "
                f"value tasklet_init() stored, the address of the member {c.path} of the "
                f"object around the work item, which {c.wrapper}() finds again with "
                "container_of(); no field is added.")
    if c.kind == "mirror" and c.drvdata:
        return (f"{cb}() used its data, the device '{c.fold}', only to look up "
                f"'{c.drvdata}' with dev_get_drvdata(); the function that calls "
                "tasklet_init() had already set that drvdata, with dev_set_drvdata(), to the "
                f"object that holds the tasklet, and nothing in the driver sets it again. So "
                f"'{c.drvdata}' is now from_work({c.drvdata}, work, {c.field}), the same "
                f"pointer, and '{c.fold}' goes: no field is added.")
    if c.kind == "mirror" and c.via:
        g, h = c.mirror.split("->")
        return (f"{cb}() was given the object that holds its work items ('{c.fold}'). The "
                "function that sets them up allocates that object, sets each item's "
                f"{g}, and only then stores the object in {g}->{h}, before which no other "
                f"code can reach an item; nothing else writes {g}, and {h} is cleared only "
                f"after the object is freed. So '{c.fold}' is now "
                + (f"{c.hop.split('*')[-1]}->{h}, with '{c.hop} = {c.via}->{g};' (the member "
                   f"{g} is a void *) and " if c.hop else f"{c.via}->{c.mirror}, with ")
                + f"{c.via} = from_work({c.via}, work, {c.field}): the same pointer, with no "
                "field and no cast through unsigned long.")
    if c.kind == "mirror":
        how = (f"the work item runs the new {c.wrapper}(), which calls {cb}() with it"
               if c.wrapper else
               f"its cast of '{c.param}' to {c.fold_type} * is now container_of(work, "
               f"{c.ctype}, {c.field})->{c.mirror}" if c.fold == "*" else
               f"'{c.fold}' is now container_of(work, {c.ctype}, {c.field})->{c.mirror}"
               if c.fold else f"'{c.param}' is now {c.expr()}")
        return (f"{cb}() took the value that tasklet_init()'s caller had just stored in "
                f"the member {c.mirror} of the object around the tasklet, which nothing else in "
                f"the driver writes: {how}, the same value, so no field is added.")
    if c.kind == "member" and c.fold:
        return (f"{cb}() took the address of the member {c.path} of the object around "
                f"the tasklet and cast it back to the {c.fold_type} pointer '{c.fold}', "
                f"which is now &container_of(work, {c.ctype}, {c.field})->{c.path}, the "
                "same address, since container_of() of the work item is that object.")
    if c.kind == "member":
        return (f"{cb}() took the address of the member {c.path} of the object around "
                f"the tasklet; '{c.param}' is now {c.expr()}, the same address, since "
                "container_of() of the work item is that object.")
    if c.kind == "field":
        return (f"{cb}() took the tasklet's data, which is not the struct around the "
                f"work item{'; ' + c.need + '. The' if c.need else ': that'} value is now "
                f"kept in the new field {c.field}_data, set where tasklet_init() set it, "
                f"and {cb}() reads it back into '{c.param}', so its body runs with the "
                "value it had before.")
    if c.fold:
        return (f"{cb}() was given the {c.ctype} that holds the work item as its data "
                f"('{c.param}'); it now finds it with from_work({c.fold}, work, {c.field}).")
    return (f"{cb}() reads its old argument in more ways than a cast: '{c.param}' is now "
            f"(unsigned long)container_of(work, {c.ctype}, {c.field}), the container "
            "that every tasklet_init() passed as data.")
