# SPDX-License-Identifier: GPL-2.0-only
"""Stage 2, for legacy_local.py: where the data of a legacy callback comes
from, and how its body reads it.

- member_path(): every init passes &E->P, a member of the tasklet's own
  container E (the "member" form);
- mirror_member(): the one init passes a value the same function just
  stored in a member g of E, which nothing else writes (the "mirror" form);
- void_pointer_read(), mirror_pointer_read(): the body reads the data once,
  as a pointer declaration, which then becomes from_work() or the member
  itself (fixups.fold_locals() writes it; void_read_re() and
  typed_read_re() are the declarations it finds).
"""

from __future__ import annotations

import re
from typing import Callable

from ...ctext.lex import block_at

Site = tuple[str, "re.Match[str] | None", int]     # (file, the init parsed, its offset)


_MEMBER_DATA_RE = re.compile(r"(?:\(\s*unsigned\s+long\s*\)\s*)?&\s*(?P<par>\()?\s*(?P<e>.+?)"
                             r"\s*(?P<op>->|\.)\s*(?P<path>\w+(?:\s*(?:->|\.)\s*\w+)*)"
                             r"\s*(?(par)\))", re.S)


def reads(d: str) -> re.Pattern[str]:
    """The name d as a variable, not a member of the same name (x->d,
    x.d: omap_ssi's parameter dev and omap_ssi->dev)."""
    return re.compile(r"(?<!->)(?<!\.)\b" + d + r"\b")


def void_read_re(d: str, name: str = r"\w+", ctag: str = r"\w+") -> re.Pattern[str]:
    """'struct C *p = (void *)d;', also through (uintptr_t) and with
    parentheses around d (nitrox): groups tag, name."""
    return re.compile(r"\bstruct\s+(?P<tag>" + ctag + r")\s*\*\s*(?P<name>" + name +
                      r")\s*=\s*\(\s*void\s*\*\s*\)\s*(?:\(\s*uintptr_t\s*\)\s*)?"
                      r"(?P<par>\()?\s*" + d + r"\s*(?(par)\))\s*;")


def void_pointer_read(body: str, d: str, ctype: str) -> str:
    """The pointer p when the only read of d in body (masked) is the
    declaration 'struct C *p = (void *)d;' with C the container type:
    then p is from_work(p, work, f). "" otherwise."""
    if not ctype.startswith("struct ") or len(reads(d).findall(body)) != 1:
        return ""
    m = void_read_re(d).search(body)
    return m.group("name") if m and "struct " + m.group("tag") == ctype else ""


def typed_read_re(d: str, name: str = r"\w+", tag: str = r"\w+") -> re.Pattern[str]:
    """'struct T *p = (struct T *)d;' or '... = (void *)d;': groups tag, name."""
    return re.compile(r"\bstruct\s+(?P<tag>" + tag + r")\s*\*\s*(?P<name>" + name +
                      r")\s*=\s*\(\s*(?:void|struct\s+(?P=tag))\s*\*\s*\)\s*(?P<par>\()?\s*"
                      + d + r"\s*(?(par)\))\s*;")


def _sole_typed_read(codes: list[str], body: str, d: str, decl: str) -> tuple[str, str]:
    """(p, 'struct T') when the only read of d in body (masked) is
    'struct T *p = (struct T *)d;' (or (void *)d) and every declaration
    the regex decl finds in the group (its group 1: the struct's tag) is
    of that same struct T. ("", "") otherwise."""
    if len(reads(d).findall(body)) != 1:
        return "", ""
    m = typed_read_re(d).search(body)
    if not m:
        return "", ""
    decls = [t for c in codes for t in re.findall(decl, c)]
    if not decls or set(decls) != {m.group("tag")}:
        return "", ""
    return m.group("name"), "struct " + m.group("tag")


def cast_read_re(d: str, tag: str = r"\w+") -> re.Pattern[str]:
    """The cast '(struct T *)d' anywhere in an expression (vme_fake:
    'fake_bridge = (struct vme_bridge *)data;'): group tag."""
    return re.compile(r"\(\s*struct\s+(?P<tag>" + tag + r")\s*\*\s*\)\s*(?P<par>\()?\s*" + d
                      + r"\b\s*(?(par)\))")


def mirror_pointer_read(codes: list[str], body: str, d: str, g: str) -> tuple[str, str]:
    """(p, 'struct T') when the only read of d in body (masked) is
    'struct T *p = (struct T *)d;' (or (void *)d) and every declaration
    of a member g in the group is 'struct T *g;': p is then the member
    itself, with no unsigned long on the way. ("*", 'struct T') when that
    one read is the cast (struct T *)d inside another statement: the
    cast becomes the member. ("", "") otherwise."""
    decl = r"\bstruct\s+(\w+)\s*\*\s*" + g + r"\s*;"
    got = _sole_typed_read(codes, body, d, decl)
    c = cast_read_re(d).search(body)
    if got[0] or not c or len(reads(d).findall(body)) != 1:
        return got
    decls = [t for code in codes for t in re.findall(decl, code)]
    return ("*", "struct " + c.group("tag")) if set(decls) == {c.group("tag")} else ("", "")


def member_pointer_read(codes: list[str], body: str, d: str, path: str) -> tuple[str, str]:
    """(p, 'struct T') when the only read of d in body (masked) is
    'struct T *p = (struct T *)d;' (or (void *)d), path is one member name
    and every declaration of it in the group is the plain 'struct T path;':
    p is then &container_of(work, C, f)->path, with no unsigned long on
    the way (iosm: &ipc_task->ipc_queue). ("", "") otherwise."""
    if not re.fullmatch(r"\w+", path):
        return "", ""
    return _sole_typed_read(codes, body, d, r"\bstruct\s+(\w+)\s+" + path + r"\s*;")


def member_path(inits: list["re.Match[str]"]) -> str:
    """The member path P when every init tasklet_init(&E->f, cb, D) passes
    D = &E->P (or &E.P with &E.f), E the same expression as the tasklet's
    own container: then D is &container_of(work, C, f)->P, whatever E was.
    "" otherwise."""
    paths = set()
    for m in inits:
        d = _MEMBER_DATA_RE.fullmatch(m.group("data").strip())
        if not d or _norm(d.group("e")) != _norm(m.group("e")) or d.group("op") != m.group("op"):
            return ""
        paths.add(re.sub(r"\s+", "", d.group("path")))
    return paths.pop() if len(paths) == 1 else ""


def _norm(e: str) -> str:
    return re.sub(r"\s+", "", e)


_CASTS_RE = re.compile(r"^(?:\(\s*(?:unsigned\s+long|uintptr_t|void\s*\*)\s*\)\s*)+")


def _stored(code: str, m: "re.Match[str]", at: int) -> str:
    """The member g when the data D of the init m (at offset at) was stored
    by 'E->g = D;' (E the tasklet's own container, the same op), earlier
    in the same block with no brace, assignment to E or D, or label in
    between, as a statement of its own (not the body of an unbraced if,
    else, for or while). "" otherwise."""
    data = _CASTS_RE.sub("", m.group("data").strip())
    if not re.fullmatch(r"\w+", data) or m.group("par"):
        return ""
    e, op = m.group("e"), re.escape(m.group("op"))
    start = max(code.rfind("{", 0, at), code.rfind("}", 0, at))
    block = code[start + 1:at]
    stores = list(re.finditer(r"(?<![\w.>])" + re.escape(e).replace(r"\ ", r"\s*") + r"\s*"
                              + op + r"\s*(\w+)\s*=(?!=)\s*" + data + r"\s*;", block))
    if not stores:
        return ""
    st = stores[-1]
    before = block[:st.start()].rstrip()
    if before and (before[-1] not in ";{}" or re.search(r"\b(?:else|do)$", before)):
        return ""
    after = block[st.end():]
    if re.search(r"(?<![=!<>])\b(?:" + re.escape(e) + "|" + data + r")\s*=(?!=)", after) \
            or re.search(r"^\s*\w+\s*:(?!:)", after, re.M):
        return ""
    return st.group(1)


def _only_store(codes: dict[str, str], ctype: str, g: str) -> bool:
    """Whether the group writes member g (->g = or .g =, also +=, ++ and
    --) or takes its address at most once, the store _stored found: a
    write through a variable declared as a pointer to another struct
    type does not count."""
    return _writes_of(codes, ctype, g) == 1


def _writes_of(codes: dict[str, str], ctype: str, g: str) -> int:
    """How many times the codes write member g of ctype or take its
    address (_only_store)."""
    tag = ctype.split()[-1]
    writes = 0
    pat = re.compile(r"(\w+)?\s*(?:->|\.)\s*" + g + r"\b\s*(?:(?:<<|>>|[-+*/%|&^])?=(?!=)|\+\+|--)"
                     r"|&\s*\(?\s*[\w.>()\[\]-]*(?:->|\.)\s*" + g + r"\b(?!\s*(?:->|\.|\[))"
                     r"|(?:\+\+|--)\s*[\w.>-]*(?:->|\.)\s*" + g + r"\b")
    for code in codes.values():
        for w in pat.finditer(code):
            base = w.group(1)
            if base:
                decl = list(re.finditer(r"\bstruct\s+(\w+)\s*\*\s*" + base + r"\b",
                                        code[:w.start()]))
                if decl and decl[-1].group(1) != tag:
                    continue        # another struct's member of the same name
            writes += 1
    return writes


def mirror_member(codes: dict[str, str], sites: list[Site], ctype: str,
                  near: Callable[[str], dict[str, str]]) -> str:
    """The member g when the one init's data was just stored in E->g (see
    _stored) and g is written nowhere else in the group or near it
    (near(g): the masked files around the group that name g); ""
    otherwise."""
    gs = {_stored(codes[f], m, at) if m else "" for f, m, at in sites}
    if len(gs) != 1 or "" in gs or len(sites) != 1:
        return ""
    g = gs.pop()
    return g if _only_store({**near(g), **codes}, ctype, g) else ""


def _top_statement(code: str, brace: int, pos: int) -> bool:
    """Whether offset pos of masked code starts a statement of its own at
    the top level of the function body opened at brace (not inside a
    block, not the body of an unbraced if, else, for or while)."""
    inner = code[brace + 1:pos]
    if inner.count("{") != inner.count("}"):
        return False
    depth = 0
    for ch in inner:                         # no block closes below the body
        depth += 1 if ch == "{" else -1 if ch == "}" else 0
        if depth < 0:
            return False
    before = code[:pos].rstrip()
    return before[-1:] in (";", "{", "}") and not re.search(r"\b(?:else|do)$", before)


def drvdata_read(codes: dict[str, str], site: Site, body: str, fold: str, ctype: str) -> str:
    """The pointer q when the callback's one use of its mirror pointer
    fold, besides declaring it, is 'struct C *q = dev_get_drvdata(fold);'
    (C the container type), and the one init's function made the drvdata
    of that same device the tasklet's own container before the init:
    'dev_set_drvdata(D, E);' with D the init's data and E the container
    expression, both statements at the top level of the function body,
    with no label and no assignment to D or E between them, and no other
    *_set_drvdata() call in the group. q is then from_work(q, work, f)
    and fold has no use left (crypto4xx: dev, then core_dev). ""
    otherwise."""
    f, m, at = site
    if m is None or len(reads(fold).findall(body)) != 2:
        return ""
    q = re.search(r"\bstruct\s+(\w+)\s*\*\s*(\w+)\s*=\s*dev_get_drvdata\s*\(\s*" + fold
                  + r"\s*\)\s*;", body)
    if not q or "struct " + q.group(1) != ctype:
        return ""
    setters = [s for c in codes.values() for s in re.finditer(r"\b\w*set_drvdata\s*\(", c)]
    data = _CASTS_RE.sub("", m.group("data").strip())
    code, e = codes[f], m.group("e").strip()
    brace = code.rfind("\n{", 0, at) + 1
    s = re.compile(r"\bdev_set_drvdata\s*\(\s*" + re.escape(data) + r"\s*,\s*"
                   + re.escape(e).replace(r"\ ", r"\s*") + r"\s*\)\s*;").search(code, brace, at)
    if (len(setters) != 1 or not re.fullmatch(r"\w+", data) or brace <= 0 or not s
            or not _top_statement(code, brace, s.start())
            or not _top_statement(code, brace, at)):
        return ""
    between = code[s.end():at]
    if re.search(r"(?<![=!<>])\b(?:" + re.escape(e) + "|" + data + r")\s*=(?!=)", between) \
            or re.search(r"^\s*\w+\s*:(?!:)", between, re.M):
        return ""
    return q.group(2)


def field_reason(codes: dict[str, str], body: str, d: str, ctype: str,
                 sites: list[Site]) -> str:
    """Why the data of a field-form callback needs its field, in the
    driver's terms, when the body's one read of d is 'struct W *p =
    (struct W *)d;': every init passed the value a member m of the
    tasklet's own container had then, and the driver writes m in more
    than one place; or the container declares no 'struct W *' member; or
    each it declares is written in more than one place. "" otherwise."""
    r = typed_read_re(d).search(body)
    if not r or len(reads(d).findall(body)) != 1 or not ctype.startswith("struct "):
        return ""
    tag, w = ctype.split()[-1], r.group("tag")
    own = {(_norm(x.group(1)), x.group(2)) for _, m, _ in sites if m for x in [re.fullmatch(
        r"(.+?)\s*(?:->|\.)\s*(\w+)", _CASTS_RE.sub("", m.group("data").strip()))]
        if x and _norm(x.group(1)) == _norm(m.group("e"))}
    if len(own) == 1 and len(own) == len(sites):
        e, g = own.pop()
        if _writes_of(codes, ctype, g) > 1:
            return (f"it is the value {e}->{g} had at tasklet_init(), and the driver "
                    f"changes {g} later (it is written in more than one place)")
    members = [m for c in codes.values() for s in re.finditer(r"\bstruct\s+" + tag + r"\s*\{", c)
               for m in re.findall(r"\bstruct\s+" + w + r"\s*\*\s*(\w+)\s*;",
                                   block_at(c, s.end() - 1) or "")]
    if not members:
        return (f"{ctype}, which holds the work item, has no member that points to a "
                f"struct {w}")
    if all(_writes_of(codes, ctype, g) > 1 for g in members):
        return (f"{ctype}'s {'/'.join(sorted(set(members)))} is also a struct {w} pointer, "
                "but the driver writes it in more than one place, so it may hold another "
                "value when the work item runs")
    return ""
