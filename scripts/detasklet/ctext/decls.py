# SPDX-License-Identifier: GPL-2.0-only
"""The struct an object is declared as, read from the function that names
it: the object of a member expression (&dc->tasklet, &ddev->tasklet), a
parameter or a local declared `struct tag *p` or `struct tag p` before
the place. Two structs' members of one name are told apart by it."""

from __future__ import annotations

import re

from .lex import function_spans

# &p->m, p->m, &p.m, (&p->m): the object p, a plain name
_BASE_RE = re.compile(r"\(?\s*&?\s*\(?\s*([A-Za-z_]\w*)\s*\)?\s*(?:->|\.)\s*\w+\s*\)?")


def base_struct(code: str, pos: int, expr: str,
                spans: list[tuple[int, int, str]] | None = None) -> str:
    """"struct tag" of the object whose member expr names, as a parameter
    or local of the function of masked code that holds pos declares it
    (the last declaration before pos); "" when the object is not a plain
    name (p->chan[i].t), pos is in no function, or no declaration of the
    name as a struct or a pointer to one comes before pos there. spans:
    function_spans(code), when the caller has them."""
    m = _BASE_RE.fullmatch(expr.strip())
    if not m:
        return ""
    spans = function_spans(code) if spans is None else spans
    here = next(((a, b) for a, b, _ in spans if a <= pos < b), None)
    if here is None:
        return ""
    # the head (its parameters) starts after the last ';' or '}' before
    # the body: a global declared above it is not read
    start = max(code.rfind(";", 0, here[0]), code.rfind("}", 0, here[0])) + 1
    # a space or '*' between tag and name: kzalloc_obj(struct zfcp_qdio) is
    # no "struct zfcp_ qdio"
    decl = re.compile(r"\bstruct\s+(\w+)(?:\s*\*\s*|\s+)(?:const\s+)?"
                      + re.escape(m.group(1)) + r"\s*[,;=)\[]")
    found = decl.findall(code, start, pos)
    return f"struct {found[-1]}" if found else ""


_PROTO_RE = re.compile(r"^[ \t]*(?:[A-Za-z_][\w]*[ \t*]+)+\**[ \t]*([A-Za-z_]\w*)[ \t]*\([^;{}()]*"
                       r"(?:\([^;{}()]*\)[^;{}()]*)*\)[\w\s()]*;", re.M)
_NOT_TYPES = frozenset({"return", "else", "do", "goto", "case", "sizeof", "typeof", "if",
                        "while", "for", "switch", "define", "undef"})


def prototypes(code: str) -> set[str]:
    """The functions masked code declares by a prototype at file scope
    (`void foo(struct bar *b);`, `extern int baz(void);`), function
    bodies and preprocessor lines aside."""
    parts, last = [], 0
    for a, b, _ in function_spans(code):
        parts += [code[last:a], ";", "\n" * code.count("\n", a, b)]
        last = b
    code = "".join(parts) + code[last:]
    code = re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", "", code, flags=re.M)
    return {m.group(1) for m in _PROTO_RE.finditer(code)
            if not _NOT_TYPES & set(re.findall(r"\w+", code[m.start():m.start(1)]))}
