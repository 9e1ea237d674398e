"""The one C lexer: comments and literals masked, lines, blocks, items.

Every reading of C text outside spatch goes through mask(): comments and
the contents of string and character literals become spaces, newlines and
offsets stay where they were, so a regex over the mask never matches prose
and a match's offset is the offset in the text. items() cuts a file into
whole-line top-level pieces (blank runs, comments, preprocessor lines,
declarations and definitions) by bracket depth over the mask.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

# An unterminated block comment (a line cut out of a file) runs to the end.
TOKEN_RE = re.compile(
    r"""/\*.*?(?:\*/|\Z)          # block comment
      | //[^\n]*                  # line comment
      | "(?:\\.|[^"\\\n])*"       # string literal
      | '(?:\\.|[^'\\\n])*'       # character literal
    """,
    re.S | re.X,
)


def _blank(m: re.Match[str]) -> str:
    s = m.group(0)
    quoted = s[0] in "\"'"
    if "\n" not in s:              # most tokens: no second regex
        return s[0] + " " * (len(s) - 2) + s[-1] if quoted else " " * len(s)
    if quoted:
        return s[0] + re.sub(r"[^\n]", " ", s[1:-1]) + s[-1]
    return re.sub(r"[^\n]", " ", s)


def mask(text: str) -> str:
    """text with comments blanked and literals emptied (quotes kept):
    the same length, every newline in place."""
    return TOKEN_RE.sub(_blank, text)


def has_prose(text: str) -> bool:
    """Whether text holds a comment or a literal."""
    return TOKEN_RE.search(text) is not None


def sub_code(pattern: re.Pattern[str], repl: str | Callable[[re.Match[str]], str],
             text: str) -> str:
    """pattern replaced by repl (a template, or a function of the match)
    where it matches code, comments and literals left as they are."""
    out, last = [], 0
    for m in pattern.finditer(mask(text)):
        out += [text[last:m.start()], repl(m) if callable(repl) else m.expand(repl)]
        last = m.end()
    out.append(text[last:])
    return "".join(out)


def line_of(text: str, i: int) -> int:
    """The 1-based line of offset i."""
    return text.count("\n", 0, i) + 1


def block_at(code: str, i: int) -> str | None:
    """The {...} block of masked code whose '{' is at i, or None when it
    is not closed."""
    depth = 0
    for j in range(i, len(code)):
        depth += {"{": 1, "}": -1}.get(code[j], 0)
        if depth == 0:
            return code[i:j + 1]
    return None


_FUNC_RE = re.compile(r"(\w+)\s*\([^;{}]*\)\s*\n\{", re.S)


def functions(code: str) -> dict[str, str]:
    """Function definitions of masked code, kernel style (the opening
    brace in column 0): name -> body."""
    out: dict[str, str] = {}
    for m in _FUNC_RE.finditer(code):
        body = block_at(code, m.end() - 1)
        if body is not None:
            out[m.group(1)] = body
    return out


def function_start(text: str, pos: int) -> int:
    """Where a new function goes before the top-level function that holds
    text[pos]: the start of that function's header, with the comment just
    above it (kernel style: '{' in column 0). -1 when pos is not in one."""
    brace = text.rfind("\n{", 0, pos)
    if brace < 0 or text.rfind("\n}", 0, pos) > brace:
        return -1
    start = brace + 1
    while True:
        prev = text.rfind("\n", 0, start - 1)
        line = text[prev + 1:start - 1]
        comment = line.lstrip().startswith(("*", "/*", "//"))
        if (prev < 0 or not line.strip() or line.startswith(("}", "#"))
                or (line.endswith(";") and not comment)):
            return start
        start = prev + 1


# ---- top-level items ---------------------------------------------------------

@dataclass(frozen=True)
class Item:
    kind: str   # "blank", "comment", "pp" or "code"
    text: str   # the source text, whole lines (indentation and newline included)
    code: str   # the same, masked


_DATA_START = re.compile(r"^\s*(?:static\s+|extern\s+|const\s+)*(struct|union|enum|typedef)\b")


def line_end(t: str, i: int) -> int:
    j = t.find("\n", i)
    return len(t) if j < 0 else j + 1


def code_end(m: str, i: int) -> int:
    """End of the declaration, definition or statement of masked text m
    starting at i; ValueError when its brackets do not close."""
    depth = 0
    for j in range(i, len(m)):
        c = m[j]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0 and c == "}":
                head = m[i:j]
                brace = head.find("{")
                before = head[:brace] if brace >= 0 else head
                funclike = "(" in before and "=" not in before and not _DATA_START.match(before)
                rest = m[j + 1:].lstrip()
                if funclike and not re.match(r"(else|while)\b", rest) and \
                        not re.match(r"\s*do\b", head):
                    return j + 1
        elif c == ";" and depth == 0:
            return j + 1
    raise ValueError(f"unbalanced code from offset {i}")


def items(text: str) -> list[Item]:
    """Cut a file (or a function body) into whole-line items."""
    m = mask(text)
    out: list[Item] = []
    i, n = 0, len(text)
    while i < n:
        e = line_end(text, i)
        if not text[i:e].strip():                       # run of blank lines
            while e < n and not text[e:line_end(text, e)].strip():
                e = line_end(text, e)
            kind = "blank"
        else:
            s = i + len(text[i:e]) - len(text[i:e].lstrip(" \t"))
            if text.startswith("#", s):                 # preprocessor, with continuations
                while text[i:e].rstrip("\n").endswith("\\") and e < n:
                    e = line_end(text, e)
                kind = "pp"
            elif text.startswith(("/*", "//"), s):
                # a comment that starts its line: to its end, then the line
                close = e - 1 if text.startswith("//", s) else text.index("*/", s) + 2
                e = line_end(text, close)
                if m[close:e].strip():                  # code after it on the line
                    e = line_end(text, code_end(m, close))
                    kind = "code"
                else:
                    kind = "comment"
            else:
                e = line_end(text, code_end(m, s))
                kind = "code"
        out.append(Item(kind, text[i:e], m[i:e]))
        i = e
    return out


def join(parts: list[Item]) -> str:
    return "".join(p.text for p in parts)
