# SPDX-License-Identifier: GPL-2.0-only
"""Stage 2, for legacy_local.py: a legacy callback's data that is a path
from the container (the "published" form of the mirror).

octeontx's init_worker_threads() allocates cwqe_info, sets up the tasklet
of each cwqe_info->vq_wqe[i] with cwqe_info as its data, stores
cwqe_info->vq_wqe[i].cptvf = cptvf right after, and only then publishes
the object: cptvf->wqe_info = cwqe_info. Nothing can reach the tasklet
before that store, so whenever it runs, container->cptvf->wqe_info is its
data; no field is needed. published_path() proves each step:

- the data D is a local pointer assigned once in the init's function,
  from a kernel allocator (kzalloc(), devm_kzalloc(), ...), before the
  init; the tasklet lives in that object (its expression E starts with
  D->);
- between the allocation and the publication, D is only used to store
  into a member of its object (D->m... = value;), tested (!D), or passed
  to the init: the object escapes nowhere else;
- right after the init, in the same block (no brace, jump, or change to
  E's names between), 'E.g = X;' with X a parameter of the function that
  the function never assigns, every declaration of g being 'struct T *g;'
  or 'void *g;' (then the callback names X first: cavium cpt); later in
  the function 'X->h = D;';
- the group (and the files around it, near()) writes g nowhere else and h
  nowhere else but 'Y->h = NULL;' after the object Y->h pointed to was
  freed (kfree*(V) with V = Y->h, earlier in the same function): a run of
  the tasklet after that is a use of freed memory before and after;
- the callback reads its data once, as 'struct W *p = (struct W *)d;'
  (or (void *)d), W the type of D, and every declaration of h is
  'void *h;' or 'struct W *h;'.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Callable

from ...ctext.lex import block_at, function_start
from .legacy_data import Site, reads, typed_read_re

_CASTS_RE = re.compile(r"^(?:\(\s*(?:unsigned\s+long|uintptr_t|u64|void\s*\*)\s*\)\s*)+")


@dataclass(frozen=True)
class PathRead:
    path: str       # "g->h", read from the container
    pointer: str    # p, the callback's pointer
    ptype: str      # "struct W", its type
    via: str        # the name of the container's pointer in the callback
    # 'struct T *x' when g is declared 'void *g' (cavium cpt): the callback
    # declares x = via->g, then reads x->h; "" when g is 'struct T *g'.
    hop: str = ""


def _writes(code: str, member: str) -> list[re.Match[str]]:
    """Each write of ->member or .member in masked code (=, op=, ++, --)
    or its address taken; group 'base': the variable before it, if any;
    group 'value': the value stored by a plain '='."""
    return list(re.finditer(
        r"(?P<base>\w+)?\s*(?:->|\.)\s*" + member + r"\b\s*(?:=(?!=)\s*(?P<value>[^;]*);"
        r"|(?:<<|>>|[-+*/%|&^])=|\+\+|--)"
        r"|&\s*\(?\s*[\w.>()\[\]-]*(?:->|\.)\s*" + member + r"\b(?!\s*(?:->|\.|\[))"
        r"|(?:\+\+|--)\s*[\w.>-]*(?:->|\.)\s*" + member + r"\b", code))


def _of_type(code: str, w: re.Match[str], tag: str) -> bool:
    """Whether the write w may be to a member of struct tag: not when its
    base is a variable last declared as a pointer to another struct."""
    base = w.group("base")
    decl = list(re.finditer(r"\bstruct\s+(\w+)\s*\*\s*" + base + r"\b", code[:w.start()])) \
        if base else []
    return not decl or decl[-1].group(1) == tag


def _freed_before(code: str, w: re.Match[str], h: str) -> bool:
    """Whether the write w is 'Y->h = NULL;' after kfree*(V) of a V that
    was read as V = Y->h earlier in the same function."""
    if (w.group("value") or "").strip() != "NULL" or not w.group("base"):
        return False
    brace = code.rfind("\n{", 0, w.start())
    before = code[brace:w.start()]
    y = re.escape(w.group("base"))
    for v in re.finditer(r"\b(\w+)\s*=\s*(?:\([^()]*\)\s*)?" + y + r"\s*->\s*" + h + r"\s*;",
                         before):
        if re.search(r"\bkfree\w*\s*\(\s*" + v.group(1) + r"\s*\)", before[v.end():]):
            return True
    return False


def _writes_ok(codes: dict[str, str], tag: str, member: str, allowed: int) -> bool:
    """Whether the codes write member of struct tag (or take its address)
    exactly allowed times, not counting NULL stores after the object was
    freed (_freed_before)."""
    n = 0
    for code in codes.values():
        for w in _writes(code, member):
            if _of_type(code, w, tag) and not _freed_before(code, w, member):
                n += 1
    return n == allowed


def _escapes(span: str, d: str) -> bool:
    """Whether span (masked, the init removed) uses d other than as a
    store into a member of its object (D->m... = value;) or a test !D:
    any other use could hand the object, or a part of it, to other code."""
    for u in re.finditer(r"(?<![\w.>])" + d + r"\b", span):
        after, before = span[u.end():], span[:u.start()].rstrip()
        if re.match(r"\s*->\s*\w+(?:\s*\[[^\]=;]*\]|\s*(?:->|\.)\s*\w+)*\s*=(?!=)", after) \
                and before[-1:] in (";", "{", "}", ")"):
            continue
        if before.endswith("!") and not before.endswith("!="):
            continue
        return True
    return False


def _local_init(code: str, m: "re.Match[str]", at: int
                ) -> tuple[str, int, int, int, str] | None:
    """(D, start of the function body, end of the allocation, end of the
    init, W) when the init m (at offset at) passes a local 'struct W *D'
    that the function assigns once, from a kernel allocator (kzalloc(),
    kmalloc_array(), devm_kzalloc(), vzalloc(), ...) before the init, and
    E starts with D->."""
    data = _CASTS_RE.sub("", m.group("data").strip())
    if not re.fullmatch(r"\w+", data) or not re.match(data + r"\s*->", m.group("e").strip()):
        return None
    brace = code.rfind("\n{", 0, at) + 1
    body = block_at(code, brace) if brace > 0 else None
    w = re.search(r"\bstruct\s+(\w+)\s*\*\s*" + data + r"\s*;", code[brace:at])
    if body is None or not w:
        return None
    sets = [s for s in re.finditer(r"(?<![\w.>])" + data + r"\s*=(?!=)", body)]
    if len(sets) != 1 or brace + sets[0].start() > at or not re.match(
            r"\s*(?:\([^()]*\)\s*)?(?:devm_)?(?:k|kv|v)[zmc]?alloc\w*\s*\(",
            body[sets[0].end():]):
        return None
    alloc = code.find(";", brace + sets[0].end()) + 1
    return data, brace, alloc, at + len(m.group(0)), w.group(1)


def _publication(code: str, e: str, at: int, brace: int, data: str,
                 g_store: "re.Match[str]") -> tuple[str, str, "re.Match[str]"] | None:
    """(g, the tag of X, the match of 'X->h = D;') when the store g_store,
    'E.g = X;', has E's names unchanged since the init at offset at, X is
    a 'struct T *' parameter of the function the function never assigns,
    and the function later stores D in X->h."""
    names = set(re.findall(r"[A-Za-z_]\w*", e))
    if re.search(r"(?<![\w.>])(?:" + "|".join(names) + r")\s*(?:[-+*/%|&^]?=(?!=)|\+\+|--)",
                 code[at:g_store.start()]):
        return None
    g, x = g_store.groups()
    head = code[function_start(code, at):brace]
    xt = re.search(r"\bstruct\s+(\w+)\s*\*\s*" + x + r"\b", head)
    fn = block_at(code, brace) or ""
    if not xt or re.search(r"(?<![\w.>])" + x + r"\s*(?:=(?!=)|\+\+|--)", fn):
        return None
    pub = re.compile(r"(?<![\w.>])" + x + r"\s*->\s*(\w+)\s*=\s*" + data + r"\s*;").search(
        code, g_store.end(), brace + len(fn))
    return (g, xt.group(1), pub) if pub else None


def published_path(codes: dict[str, str], site: Site, body: str, d: str, ctag: str,
                   near: Callable[[str], dict[str, str]]) -> PathRead | None:
    """The path from the container to the data of the one init site, and
    how the callback body (masked; its parameter d) reads it, when the
    module docstring's steps all hold; None otherwise."""
    f, m, at = site
    code = codes[f]
    got = _local_init(code, m, at) if m else None
    if m is None or got is None:
        return None
    data, brace, alloc, end, wtag = got
    e, op = m.group("e").strip(), re.escape(m.group("op"))
    found = None
    for g_store in re.compile(re.escape(e).replace(r"\ ", r"\s*") + r"\s*" + op
                              + r"\s*(\w+)\s*=\s*(\w+)\s*;").finditer(code, end):
        if re.search(r"[{}]|\b(?:continue|break|return|goto)\b", code[end:g_store.start()]):
            break
        found = _publication(code, e, at, brace, data, g_store)
        if found:
            break
    if not found:
        return None
    g, xtag, pub = found
    h = pub.group(1)
    gdecls = {t for c in codes.values() for sb in re.finditer(r"\bstruct\s+" + ctag + r"\s*\{", c)
              for t in re.findall(r"(\w+)\s*\*\s*" + g + r"\s*;", block_at(c, sb.end() - 1) or "")}
    if gdecls not in ({xtag}, {"void"}):
        return None                 # the path must dereference g as X's type
    x = pub.group(0).split("->")[0].strip()
    hop = f"struct {xtag} *{x}" if gdecls == {"void"} else ""
    if _escapes(code[alloc:at] + ";" + code[end:pub.start()], data):
        return None
    around = {**near(g), **near(h), **codes}
    if not _writes_ok(around, ctag, g, 1) or not _writes_ok(around, xtag, h, 1):
        return None
    return _read(codes, around, body, d, PathRead(f"{g}->{h}", "", "struct " + wtag, "", hop),
                 ctag)


def _read(codes: dict[str, str], around: dict[str, str], body: str, d: str, pr: PathRead,
          ctag: str) -> PathRead | None:
    """pr with the callback's pointer and the container's name filled in,
    when the body's one read of d is 'struct W *p = (struct W *)d;' (or
    (void *)d), every declaration of h is 'void *h;' or 'struct W *h;',
    and a name the group gives struct ctag pointers is free in body.
    around: the group and the files near it (h may be declared there)."""
    wtag = pr.ptype.split()[-1]
    if len(reads(d).findall(body)) != 1:
        return None
    r = typed_read_re(d, tag=wtag).search(body)
    h = pr.path.split("->")[-1]
    decls = [t for c in around.values() for t in re.findall(r"(\w+)\s*\*\s*" + h + r"\s*;", c)]
    if not r or not decls or set(decls) - {"void", wtag}:
        return None
    names = Counter(n for c in codes.values()
                    for n in re.findall(r"\bstruct\s+" + ctag + r"\s*\*\s*(\w+)\s*[;=,)]", c))
    taken = {r.group("name"), pr.hop.split("*")[-1]}
    via = next((n for n, _ in names.most_common()
                if n not in taken and not re.search(r"\b" + n + r"\b", body)), "")
    if pr.hop and reads(pr.hop.split("*")[-1]).search(body):
        return None                 # the name of X is used in the callback
    return PathRead(pr.path, r.group("name"), pr.ptype, via, pr.hop) if via else None
