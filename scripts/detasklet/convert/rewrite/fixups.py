# SPDX-License-Identifier: GPL-2.0-only
"""Stage 3, after spatch: the text passes spatch cannot do.

- Inside #define bodies: spatch parses a macro body only when it looks
  like an expression or a statement it knows, and never rewrites one like
  rt2x00's RT2X00_TASKLET_INIT(). The one-for-one rows of the mapping
  (mapping.MAPPING, `macro`) are calls whose arguments stay as they are,
  so doing them on the tokens of a macro body is the same rewrite.
  tasklet_schedule() goes to the item's one workqueue, as in
  cocci/40-calls.cocci. tasklet_enable() is not one-for-one (its
  workqueue needs the facts of each use): a macro with it, or with
  anything else, keeps the API and the file stays unconverted.
- struct tasklet_struct left in code spatch could not parse.
- The kernel-doc @name of a callback parameter that became 'work'.
- The comments that named the API, per site (rewrite/comments.py).
- For the legacy callbacks of convert.facts.legacy_local: the new f_data
  field, the cb_work() wrapper, and the new local in kernel style.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...ctext import layout
from ...ctext.lex import block_at, function_start, has_prose, mask, paren_end, sub_code
from ...ctext.tasklet import (FORWARD_DECL_RE, MEMBER_LINE_RE, SCHEDULE_CALL_RE, STRUCT_RE, key,
                              member_declaration, only_forward_declared)
from ...mapping import MAPPING, bh_queue

from ..facts.legacy_data import cast_read_re, typed_read_re, void_read_re
from ..facts import unused
from . import comments

if TYPE_CHECKING:
    from ..facts.legacy_local import LocalCb
    from ..verdicts.sites import Tracked
    from ..facts.groups import Group

_DEFINE_RE = re.compile(r"^[ \t]*#[ \t]*define\b(?:[^\n]*\\\n)*[^\n]*", re.M)


def after_spatch(orig: str, spatched: str | None, g: "Group", path: str) -> str:
    """The new text of a file: spatch's output (None: spatch changed
    nothing) with every pass of this module, for the facts of group g, and
    its comments that named the API rewritten (rewrite.comments)."""
    return comments.rewrite(path, _code_passes(orig, spatched, g, path))


def _code_passes(orig: str, spatched: str | None, g: "Group", path: str) -> str:
    """after_spatch() but the comments. A file whose only tasklet API is an
    unused forward declaration loses it, and so does a header nothing names
    whose only tasklet API is plain members (g.dead_members)."""
    dead = FORWARD_DECL_RE if only_forward_declared(orig) else \
        MEMBER_LINE_RE if path in g.dead_members else None
    if dead:
        found = list(dead.finditer(mask(orig)))
        spans = [m.span() for m in found]
        names = [m.group(1) for m in found] if dead is MEMBER_LINE_RE else []
        for n in names:                     # the member's kernel-doc line(s) go too
            spans += [m.span() for m in re.finditer(
                r"^[ \t]*\*[ \t]*@" + n + r":.*\n(?:[ \t]*\*[ \t]+(?!@)\S.*\n)*", orig, re.M)]
        for a, b in sorted(spans, reverse=True):    # mask keeps offsets: cut the lines
            orig = orig[:a] + orig[b:]
        return orig
    text = rename_kerneldoc(orig, spatched) if spatched is not None else orig
    text = rename_type(rewrite_macros(text, frozenset(g.hi_keys)))
    fields = sorted(c.field for c in g.legacy_local.values() if c.kind == "field")
    text = fold_locals(text, [c for c in g.legacy_local.values() if c.fold])
    text = tidy_locals(add_fields(orig, text, fields))
    text = add_wrappers(text, {cb: (c.wrapper, c.expr())
                               for cb, c in g.legacy_local.items() if c.wrapper})
    text = tracked_passes(orig, text, g.plan.tracked, path)
    return unused.remove(unbrace_blank(orig, text), sorted(g.unused.get(path, {})))


# A control header without its brace, then a line of blanks only: what
# spatch leaves where cocci/40-calls.cocci took the braces off a block that
# a removed kill left with one statement (QAT's loop).
_UNBRACED_BLANK_RE = re.compile(r"^(\t+(?:for|while|if)\s*\(.*\)[ \t]*\n)[ \t]+\n", re.M)


def unbrace_blank(orig: str, text: str) -> str:
    """text without the blank line spatch leaves after a header whose
    braces it removed; unchanged when orig has that shape itself."""
    return text if _UNBRACED_BLANK_RE.search(orig) else _UNBRACED_BLANK_RE.sub(r"\1", text)


def _schedule(body: str, hi_keys: frozenset[str]) -> str:
    """tasklet_schedule(X) -> queue_work(<X's workqueue>, X)."""
    out, last = [], 0
    for m in SCHEDULE_CALL_RE.finditer(body):
        end = paren_end(body, m.end())
        arg = body[m.end():end - 1]
        out += [body[last:m.start()], f"queue_work({bh_queue(key(arg), hi_keys)}, "]
        last = m.end()
    out.append(body[last:])
    return "".join(out)


def rewrite_macros(text: str, hi_keys: frozenset[str] = frozenset()) -> str:
    """The one-for-one renames inside every #define that holds no comment
    or literal; the rest of the file is left to spatch."""
    out, last = [], 0
    for m in _DEFINE_RE.finditer(text):
        body = m.group(0)
        if not has_prose(body):
            new = _schedule(body, hi_keys)
            for row in MAPPING:
                if row.macro:
                    new = row.pattern.sub(row.macro, new)
            out.append(text[last:m.start()])
            out.append(new)
            last = m.end()
    out.append(text[last:])
    return "".join(out)


def rename_type(text: str) -> str:
    """struct tasklet_struct -> struct work_struct in code, comments and
    literals aside. cocci/90-types.cocci does this wherever spatch parsed
    the code; what is left is in code it skipped (jme.h's struct, whose
    DECLARE_NAPI_STRUCT member spatch cannot parse). A type name has no
    context to get wrong, and whatever else that code holds is still
    tasklet API, which convert.rewrite.classify sees."""
    return sub_code(STRUCT_RE, "struct work_struct", text)


_NEW_CB_RE = re.compile(r"\b(\w+)\(struct work_struct \*work\)\s*\{")


def rename_kerneldoc(old: str, new: str) -> str:
    """A callback whose parameter became 'work' (cocci/20, 30) keeps a
    kernel-doc comment that names the old one ('@t: the tasklet'), which
    scripts/kernel-doc then reports twice. The @name: line of the comment
    right above the definition becomes "@work: the work item" (the old
    words described the tasklet or the data, which are gone)."""
    out = new
    for m in reversed(list(_NEW_CB_RE.finditer(new))):
        fn = m.group(1)
        o = re.search(r"\b" + fn + r"\s*\(\s*(?:" + STRUCT_RE.pattern + r"\s*\*\s*|unsigned\s+"
                      r"long\s+|void\s*\*\s*)(\w+)\s*\)\s*\{", old)
        if not o or o.group(1) == "work":
            continue
        end = out.rfind("*/", 0, m.start())
        start = out.rfind("/**", 0, end)
        if end < 0 or start < 0 or re.search(r"[;{}]", out[end + 2:m.start()]):
            continue
        doc = re.sub(r"(\*\s*@)" + o.group(1) + r"(\s*:)[^\n]*", r"\1work\2 the work item",
                     out[start:end])
        out = out[:start] + doc + out[end:]
    return out


# ---- legacy callbacks that keep their body (convert.facts.legacy_local) -------------

def add_fields(orig: str, text: str, fields: list[str]) -> str:
    """Declare unsigned long f_data after the member f, in the file whose
    original text declares the tasklet member f (once: legacy_local checked
    that the group has one such declaration)."""
    for f in fields:
        text = add_member(orig, text, f, f + "_data")
    return text


def add_member(orig: str, text: str, f: str, name: str) -> str:
    """unsigned long name; after the work_struct member f of text, when
    orig declares the tasklet member f exactly once; aligned as the
    member's name is."""
    if len(member_declaration(f).findall(orig)) != 1:
        return text
    decl = re.compile(r"^([ \t]*)struct\s+work_struct(\s+)" + f + r"\s*;[^\n]*\n", re.M)
    found = list(decl.finditer(text))
    if len(found) != 1:
        return text
    m = found[0]
    indent, gap = m.group(1), m.group(2)
    if "\t" in gap:
        # Aligned members: the new name in the column of the member's.
        col = len((indent + "struct work_struct" + gap).expandtabs(8))
        here = len((indent + "unsigned long").expandtabs(8))
        gap = "\t" * max(1, -(-(col - here) // 8)) if col % 8 == 0 else gap
    else:
        gap = " "
    return text[:m.end()] + f"{indent}unsigned long{gap}{name};\n" + text[m.end():]


def add_wrappers(text: str, wrappers: dict[str, tuple[str, str]]) -> str:
    """Define each wrapper work function (cb -> (name, the value
    tasklet_init() stored)) that the rules pointed an INIT_WORK() at,
    before the function of its first INIT_WORK(): it calls the callback
    with that value, as the tasklet core did."""
    for cb, (name, expr) in sorted(wrappers.items()):
        if re.search(r"\b" + name + r"\s*\(\s*struct work_struct", text):
            continue
        m = re.search(r"\bINIT_WORK\s*\([^;]*\b" + name + r"\s*\)", text)
        if not m:
            continue
        at = function_start(text, m.start())
        if at < 0:
            continue
        call = layout.wrap(f"\t{cb}({expr});", layout.MAX_COLS)
        if not _fits(call):
            # too long for one call (caam: &container_of(...)->tasklet_params):
            # the value in a local, laid out as the callbacks' locals are
            call = _local_line("\t", "unsigned long", "data", f"{expr};") + \
                f"\n\n\t{cb}(data);"
        fn = f"static void {name}(struct work_struct *work)\n{{\n{call}\n}}\n\n"
        text = text[:at] + fn + text[at:]
    return text


def fold_locals(text: str, cs: "list[LocalCb]") -> str:
    """For each callback whose one read of its old argument d was
    'struct C *p = (void *)d;' (legacy_local.void_pointer_read): the local
    'unsigned long d = (unsigned long)container_of(work, C, f);' that
    cocci/22 put first in its body goes, and p's declaration becomes
    'struct C *p = from_work(p, work, f);', the same pointer. A mirror
    callback's 'struct T *p = (struct T *)d;' becomes
    'struct T *p = container_of(work, C, f)->g;' the same way, or, for a
    path g->h (c.via), 'struct C *via = from_work(via, work, f);' and
    'struct T *p = via->g->h;'."""
    for c in cs:
        local = re.compile(r"^\t+(?:unsigned long|uintptr_t) " + c.param + r" = "
                           + re.escape(c.expr()) + r";\n", re.M)
        for m in reversed(list(local.finditer(text))):
            masked = mask(text)
            brace = masked.rfind("{", 0, m.start())      # the local is first in the body
            block = block_at(masked, brace) if brace >= 0 else None
            if block is None:
                continue
            end = brace + len(block)
            body = text[m.end():end]
            folded = _fold_drvdata(body, c) if c.kind == "mirror" and c.drvdata else \
                _fold_cast(body, c) if c.kind == "mirror" and c.fold == "*" else None
            if folded is not None:
                text = text[:m.start()] + folded + text[end:]
                continue
            if c.kind in ("mirror", "member"):
                d = typed_read_re(c.param, c.fold, re.escape(c.fold_type.split()[-1])
                                  ).search(mask(body))
                line = body[body.rfind("\n", 0, d.start()) + 1:] if d else ""
                tab = line[:len(line) - len(line.lstrip(" \t"))]
                value = (f"container_of(work, {c.ctype}, {c.field})->{c.mirror};"
                         if c.kind == "mirror" else
                         f"&container_of(work, {c.ctype}, {c.field})->{c.path};")
                # within 80 columns where it can be (netdev's iosm, crypto4xx)
                new_decl = _local_line(tab, c.fold_type, "*" + c.fold, value, 80)[len(tab):]
                if c.via:       # octeontx: the container first, then the path from it
                    new_decl = _path_decls(tab, c)
            else:
                d = void_read_re(c.param, c.fold, re.escape(c.ctype.split()[-1])
                                 ).search(mask(body))
                new_decl = f"{c.ctype} *{c.fold} = from_work({c.fold}, work, {c.field});"
            if not d:
                continue
            body = body[:d.start()] + new_decl + body[d.end():]
            text = text[:m.start()] + body + text[end:]
    return text


def _path_decls(tab: str, c: "LocalCb") -> str:
    """The declarations that read a published path (c.via): the container
    from_work(), then, when the path's first member is a void *, that
    pointer (c.hop), then the callback's pointer; the first without tab."""
    g, h = c.mirror.split("->")
    out = f"{c.ctype} *{c.via} = from_work({c.via}, work, {c.field});\n"
    value = f"{c.via}->{c.mirror};"
    if c.hop:
        typ, x = c.hop.rsplit("*", 1)
        out += f"{tab}{typ.strip()} *{x} = {c.via}->{g};\n"
        value = f"{x}->{h};"
    return out + _local_line(tab, c.fold_type, "*" + c.fold, value, 80)


def _fold_cast(body: str, c: "LocalCb") -> str | None:
    """A mirror callback's body (after its local) whose one read of its old
    argument is the cast (struct T *)d inside a statement
    (legacy_data.mirror_pointer_read's "*"): the cast becomes the member
    the data was stored in. None when it is not found."""
    r = cast_read_re(c.param, re.escape(c.fold_type.split()[-1])).search(mask(body))
    if not r:
        return None
    return (body[:r.start()] + f"container_of(work, {c.ctype}, {c.field})->{c.mirror}"
            + body[r.end():])


def _fold_drvdata(body: str, c: "LocalCb") -> str | None:
    """A mirror callback's body (after its local) whose pointer c.fold was
    only there to find the container as its drvdata
    (legacy_data.drvdata_read): the line 'struct T *fold = (T *)d;' goes,
    and 'struct C *q = dev_get_drvdata(fold);' becomes
    'struct C *q = from_work(q, work, f);'. None when either is not found
    or the first is not alone on its line."""
    d = typed_read_re(c.param, c.fold, re.escape(c.fold_type.split()[-1])).search(mask(body))
    q = re.compile(r"(?P<decl>\bstruct\s+\w+\s*\*\s*" + c.drvdata + r")\s*=\s*dev_get_drvdata"
                   r"\s*\(\s*" + c.fold + r"\s*\)\s*;").search(mask(body))
    if not d or not q or q.start() < d.end():
        return None
    start = body.rfind("\n", 0, d.start()) + 1
    end = body.find("\n", d.end()) + 1
    if body[start:d.start()].strip() or body[d.end():end].strip():
        return None
    body = (body[:q.start()] + f"{q.group('decl')} = from_work({c.drvdata}, work, {c.field});"
            + body[q.end():])
    return body[:start] + body[end:]


_LOCAL_RE = re.compile(r"^(\t+)(unsigned long|uintptr_t) (\w+) = ((?:\(unsigned long\)&?)?"
                       r"container_of\(work, [^;\n]*;)\n(?=([^\n]*))", re.M)
# A declaration line, as checkpatch sees one: type words, a name, = ; or ,
_DECL_RE = re.compile(r"\t+(?:(?:const|static|volatile|unsigned|signed|struct|union|enum)\s+)*"
                      r"(?!return\b|goto\b|else\b|case\b|do\b)\w+\s+[\s*]*\w+\s*"
                      r"(?:\[[^\]]*\]\s*)*(?:=|;|,)")


def tidy_locals(text: str, limit: int = layout.MAX_COLS) -> str:
    """The new 'unsigned long d = container_of(...)...;' first in a
    callback body, in kernel style: within checkpatch's 100 columns
    (layout.wrap, the project's one line breaker; else a break after '='
    first), and followed by a blank line when no declaration follows."""
    def fix(m: re.Match[str]) -> str:
        tab, typ, name, value, nxt = m.groups()
        blank = "" if not nxt.strip() or _DECL_RE.match(nxt) else "\n"
        return _local_line(tab, typ, name, value, limit) + "\n" + blank
    return _LOCAL_RE.sub(fix, text)


def _fits(text: str, limit: int = layout.MAX_COLS) -> bool:
    return all(layout.width(ln) <= limit for ln in text.split("\n"))


def _local_line(tab: str, typ: str, name: str, value: str,
                limit: int = layout.MAX_COLS) -> str:
    """'typ name = value' (value ends with ';') within limit columns:
    broken after commas (layout.wrap), else after '=' first."""
    tries = [layout.wrap(f"{tab}{typ} {name} = {value}", limit),
             f"{tab}{typ} {name} =\n" + layout.wrap(f"{tab}\t{value}", limit)]
    return next((t for t in tries if _fits(t, limit)), tries[0])


# ---- the tracked enable (convert.verdicts.sites) ------------------------------
#
# cocci/40-calls.cocci sets the flag where a tracked item is queued and tests
# it at enable; these passes add what is a position in a declaration or a
# body rather than a rewrite of a call: "unsigned long <item>_queued;" after
# the member (or a static beside a global item), and clear_bit(0, flag);
# smp_mb__after_atomic(); after the declarations at the top of each callback.
# The order is safe: enable_work() ends with a full barrier and the queueing
# side's test-and-set of the pending bit is fully ordered, so either
# queue_work() sees the item enabled or the enable sees the flag; both may
# queue, which collapses into one run. The callback clears the flag before
# it reads the state a run was asked for.

def tracked_passes(orig: str, text: str, tracked: dict[str, "Tracked"], path: str) -> str:
    """Both tracked-enable passes, for the items tracked in the group."""
    if not tracked:
        return text
    items = {i: {"kind": t.kind, "home": t.home, "callbacks": t.callbacks}
             for i, t in tracked.items()}
    return mark_callbacks(add_flags(orig, text, items, path), items)


_TRACKED_DECL_RE = re.compile(r"\t+(?:(?:const|static|volatile|unsigned|signed|struct|union|enum)\s+)*"
                      r"(?!return\b|goto\b|else\b|case\b|do\b|if\b|while\b|for\b|switch\b)"
                      r"\w+\s+(?:\w+\s+)*[\s*]*\w+\s*(?:\[[^\]]*\]\s*)*(?:=|;|,)")


def add_flags(orig: str, text: str, tracked: dict[str, dict], path: str) -> str:
    """Declare the flag of each tracked item where the item is declared."""
    for item, t in sorted(tracked.items()):
        flag = item + "_queued"
        if t["kind"] == "member":
            text = add_member(orig, text, item, flag)
        elif t["home"] == path:
            m = re.search(r"^(?:static\s+)?(?:DECLARE_WORK\s*\(\s*" + item + r"\s*,[^;]*\)|"
                          r"struct\s+work_struct\s+" + item + r")\s*;[^\n]*\n", text, re.M)
            if not m:
                continue
            # before a callback defined above the item (it names the flag)
            first = min((c.start() for cb in t["callbacks"] for c in re.finditer(
                r"^[^\n]*\b" + cb + r"\(struct work_struct \*work\)\n\{", text, re.M)),
                default=m.end())
            if first < m.start():
                text = text[:first] + f"static unsigned long {flag};\n\n" + text[first:]
            else:
                text = text[:m.end()] + f"static unsigned long {flag};\n" + text[m.end():]
    return text


def _flag_in(body: str, item: str, t: dict) -> str:
    """The flag as the callback body reaches it: through from_work()'s
    container for a member, by name for a global."""
    if t["kind"] == "global":
        return f"&{item}_queued"
    m = re.search(r"\bfrom_work\(\s*(\w+)\s*,\s*work\s*,\s*([\w.\[\]]*\b" + item + r")\s*\)",
                  body)
    return f"&{m.group(1)}->{m.group(2)}_queued" if m else ""


def mark_callbacks(text: str, tracked: dict[str, dict]) -> str:
    """Clear the flag first in every callback of a tracked item that this
    text defines (after its declarations)."""
    for item, t in sorted(tracked.items()):
        for cb in t["callbacks"]:
            m = re.search(r"^[^\n]*\b" + cb + r"\(struct work_struct \*work\)\n\{\n", text, re.M)
            if not m:
                continue
            end = text.find("\n}\n", m.end())
            body = text[m.end():end if end >= 0 else len(text)]
            flag = _flag_in(body, item, t)
            if not flag or "clear_bit(0, " + flag + ")" in body:
                continue
            lines = body.split("\n")
            k = 0
            while k < len(lines) and (_TRACKED_DECL_RE.match(lines[k]) or
                                      k and not lines[k - 1].rstrip().endswith((";", "{"))
                                      and lines[k].strip()):
                k += 1
            add = [f"\tclear_bit(0, {flag});",
                   "\t/* Clear before running; pairs with the barrier of the enable. */",
                   "\tsmp_mb__after_atomic();"]
            if k and k < len(lines) and not lines[k].strip():
                k += 1                               # after the blank line
            elif k:
                add = [""] + add
            if k < len(lines) and lines[k].strip() and lines[k].strip() != "}":
                add.append("")
            lines[k:k] = add
            text = text[:m.end()] + "\n".join(lines) + text[m.end() + len(body):]
    return text
