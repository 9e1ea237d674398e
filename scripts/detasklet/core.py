"""The last patch of the series: the tasklet core removed from the kernel.

Once every user is converted, the tasklet machinery in kernel/softirq.c,
include/linux/interrupt.h and include/trace/events/irq.h has no caller.
What must stay is the BH workqueue execution: in 6.12 the TASKLET_SOFTIRQ
and HI_SOFTIRQ actions run workqueue_softirq_action(false/true) first and
the tasklet lists after, and the CPU-dead callback drains the dead CPU's
BH pools (workqueue_softirq_dead) before it moves its tasklet lists.  So
the two softirq vectors stay, their actions become the workqueue call
alone, and the hotplug callback keeps the drain.

Why Python and not a semantic patch: most of what goes is not C statements
that spatch rewrites well, but #define bodies (DECLARE_TASKLET*, which
spatch skips, see macros.py), an enum, #if/#else blocks whose branches
become empty, kernel-doc comments, and DECLARE_EVENT_CLASS/DEFINE_EVENT
calls in a trace header that is read several times under different macro
definitions.  So each file is cut into top-level items (blank runs,
comments, preprocessor lines, declarations, function definitions) by a
small lexer that knows comments, strings and bracket depth, and items are
dropped by what they name.  Three functions are kept and filtered statement
by statement instead; they are named in KEEP, and their new names in
RENAMES.  Every step checks what it expects to find: on a tree where the
core looks different the command stops with the reason, it never writes a
patch it did not verify (see check()).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path

from . import scan
from .errors import CoreError

SOFTIRQ_C = "kernel/softirq.c"
INTERRUPT_H = "include/linux/interrupt.h"
TRACE_IRQ_H = "include/trace/events/irq.h"
FILES = (INTERRUPT_H, TRACE_IRQ_H, SOFTIRQ_C)

# Names private to the tasklet core (kernel/softirq.c, trace/events/irq.h):
# an item naming one of them, or an API identifier, is tasklet machinery.
INTERNALS = frozenset({
    "tasklet_head", "tasklet_vec", "tasklet_hi_vec", "__tasklet_schedule_common",
    "tasklet_clear_sched", "tasklet_action_common", "trace_tasklet_entry",
    "trace_tasklet_exit",
    # 7.x: the PREEMPT_RT callback lock that tasklet_unlock_spin_wait() waits on
    "tasklet_sync_callback", "tasklet_lock_callback", "tasklet_unlock_callback",
    "tasklet_callback_cancel_wait_running", "tasklet_callback_sync_wait_running",
})
_NAMES_RE = re.compile(r"\b(" + "|".join(
    sorted(set(scan.API_IDENTIFIERS) | INTERNALS, key=len, reverse=True)) + r")\b")

# Functions of kernel/softirq.c that also do BH workqueue work: kept, with
# only their tasklet statements removed.
KEEP = ("tasklet_action", "tasklet_hi_action", "softirq_init", "takeover_tasklets")

# The kept functions are named after tasklets; nothing outside softirq.c
# refers to them (they are static, and the #define for !HOTPLUG_CPU is in
# the same file), so they are renamed to say what they run now.
RENAMES = {
    "tasklet_action": "bh_workqueue_action",
    "tasklet_hi_action": "bh_workqueue_hi_action",
    "takeover_tasklets": "softirq_cpu_dead",
}

# Other files name a renamed function in a string: a kprobe target, looked
# up by name at run time, which the compiler cannot catch.  (Found with
# grep -rn over the 6.12 tree; Documentation/trace/histogram.rst has
# tasklet_hi_action in a sample stack trace, which is left as it was.)
SYMBOL_STRINGS = {
    "drivers/misc/lkdtm/core.c": ('"tasklet_action"', '"bh_workqueue_action"'),
}

# In the CPU-dead callback these calls only served the moved tasklet lists:
# raise the vectors so that this CPU runs what it took over.  The BH work of
# the dead CPU is already drained by workqueue_softirq_dead(), which waits
# for it (kernel/workqueue.c), so they go, and so does the interrupts-off
# section that protected the list splicing.
HOTPLUG_ONLY_FOR_LISTS = re.compile(r"^\s*raise_softirq_irqoff\s*\(\s*(HI|TASKLET)_SOFTIRQ\s*\)\s*;")

# What the result must still contain, per file (checked after the edit).
MUST_KEEP = {
    SOFTIRQ_C: ("workqueue_softirq_action(false);", "workqueue_softirq_action(true);",
                "workqueue_softirq_dead(cpu);", "open_softirq(TASKLET_SOFTIRQ,",
                "open_softirq(HI_SOFTIRQ,"),
    INTERRUPT_H: ("TASKLET_SOFTIRQ,", "HI_SOFTIRQ=0,"),
    TRACE_IRQ_H: ("softirq_name(TASKLET)", "DEFINE_EVENT(softirq, softirq_raise,"),
}


# ---- lexing ----------------------------------------------------------------

_LEX_RE = re.compile(r"""/\*.*?\*/ | //[^\n]* | "(?:\\.|[^"\\\n])*" | '(?:\\.|[^'\\\n])*'""",
                     re.S | re.X)


def mask(text: str) -> str:
    """Same length as text; comments become spaces, string contents too
    (newlines kept), so offsets in the mask are offsets in the text."""
    def blank(m: re.Match[str]) -> str:
        s = m.group(0)
        if s[0] in "\"'":
            return s[0] + " " * (len(s) - 2) + s[-1]
        return re.sub(r"[^\n]", " ", s)
    return _LEX_RE.sub(blank, text)


@dataclass(frozen=True)
class Item:
    kind: str   # "blank", "comment", "pp" or "code"
    text: str   # the source text, whole lines (indentation and newline included)
    code: str   # the same with comments and strings masked

    def names(self) -> set[str]:
        return set(_NAMES_RE.findall(self.code))


_DATA_START = re.compile(r"^\s*(?:static\s+|extern\s+|const\s+)*(struct|union|enum|typedef)\b")


def _line_end(t: str, i: int) -> int:
    j = t.find("\n", i)
    return len(t) if j < 0 else j + 1


def _code_end(m: str, i: int) -> int:
    """End of the declaration, definition or statement starting at i."""
    depth = 0
    n = len(m)
    j = i
    while j < n:
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
        j += 1
    raise CoreError(f"unbalanced code from offset {i}")


def items(text: str) -> list[Item]:
    """Cut a file (or a function body) into whole-line items."""
    m = mask(text)
    out: list[Item] = []
    i, n = 0, len(text)
    while i < n:
        e = _line_end(text, i)
        if not text[i:e].strip():                       # run of blank lines
            while e < n and not text[e:_line_end(text, e)].strip():
                e = _line_end(text, e)
            kind = "blank"
        else:
            s = i + len(text[i:e]) - len(text[i:e].lstrip(" \t"))
            if text.startswith("#", s):                 # preprocessor, with continuations
                while text[i:e].rstrip("\n").endswith("\\") and e < n:
                    e = _line_end(text, e)
                kind = "pp"
            elif text.startswith(("/*", "//"), s):
                # a comment that starts its line: to its end, then the line
                close = e - 1 if text.startswith("//", s) else text.index("*/", s) + 2
                e = _line_end(text, close)
                if m[close:e].strip():                  # code after it on the line
                    e = _line_end(text, _code_end(m, close))
                    kind = "code"
                else:
                    kind = "comment"
            else:
                e = _line_end(text, _code_end(m, s))
                kind = "code"
        out.append(Item(kind, text[i:e], m[i:e]))
        i = e
    return out


def join(parts: list[Item]) -> str:
    return "".join(p.text for p in parts)


# ---- dropping --------------------------------------------------------------

def _attached_comment(parts: list[Item], k: int) -> int | None:
    """Index of the comment that documents parts[k]: right above it, or one
    blank line above it if the comment itself is about tasklets."""
    if k >= 1 and parts[k - 1].kind == "comment":
        return k - 1
    if k >= 2 and parts[k - 1].kind == "blank" and parts[k - 1].text.count("\n") == 1 \
            and parts[k - 2].kind == "comment" and "tasklet" in parts[k - 2].text.lower():
        return k - 2
    return None


def drop(parts: list[Item], doomed: set[int]) -> list[Item]:
    """parts without the doomed items, their comments, and the empty
    #if/#else/#endif groups and doubled blank runs that this leaves."""
    doomed = set(doomed)
    for k in sorted(doomed):
        c = _attached_comment(parts, k)
        while c is not None and c not in doomed:
            doomed.add(c)
            c = _attached_comment(parts, c)
    kept = [p for k, p in enumerate(parts) if k not in doomed]
    kept = _drop_empty_conditionals(kept)
    return _merge_blanks(kept)


_PP_RE = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b")


def _pp(p: Item) -> str | None:
    m = _PP_RE.match(p.text) if p.kind == "pp" else None
    return m.group(1) if m else None


def _drop_empty_conditionals(parts: list[Item]) -> list[Item]:
    changed = True
    while changed:
        changed = False
        stack: list[int] = []
        for k, p in enumerate(parts):
            d = _pp(p)
            if d in ("if", "ifdef", "ifndef"):
                stack.append(k)
            elif d == "endif" and stack:
                start = stack.pop()
                inner = parts[start + 1:k]
                if all(q.kind == "blank" or _pp(q) in ("elif", "else") for q in inner):
                    parts = parts[:start] + parts[k + 1:]
                    changed = True
                    break
    return parts


def _merge_blanks(parts: list[Item]) -> list[Item]:
    out: list[Item] = []
    for p in parts:
        if p.kind == "blank" and out and out[-1].kind == "blank":
            continue
        out.append(p)
    return out


def _strip_edge_blanks(parts: list[Item]) -> list[Item]:
    while parts and parts[0].kind == "blank":
        parts = parts[1:]
    while parts and parts[-1].kind == "blank":
        parts = parts[:-1]
    return parts


# ---- the kept functions ------------------------------------------------------

def _function_name(p: Item) -> str | None:
    if p.kind != "code":
        return None
    brace = p.code.find("{")
    if brace < 0:
        return None
    m = re.search(r"\b(\w+)\s*\([^()]*\)\s*$", p.code[:brace])
    return m.group(1) if m else None


_LOCAL_RE = re.compile(r"^\s*(?:unsigned\s+)?(?:int|long|bool)\s+(\w+)\s*;\s*$")


def filter_body(func: Item, name: str) -> Item:
    """func with the statements that name the tasklet core removed."""
    open_ = func.code.index("{")
    close = func.code.rindex("}")
    head_end = _line_end(func.text, open_)
    body_start = func.text.rfind("\n", 0, close) + 1
    body = items(func.text[head_end:body_start])
    doomed = {k for k, p in enumerate(body) if p.names()}
    if name == "takeover_tasklets":
        doomed |= {k for k, p in enumerate(body) if HOTPLUG_ONLY_FOR_LISTS.match(p.code)}
    kept = drop(body, doomed)
    kept = _drop_empty_irq_off(kept)
    # locals nothing uses any more (int cpu; of the per-cpu list set-up)
    rest = "".join(p.code for p in kept)
    unused = {k for k, p in enumerate(kept)
              if (lm := _LOCAL_RE.match(p.code)) and
              len(re.findall(r"\b" + lm.group(1) + r"\b", rest)) == 1}
    kept = _strip_edge_blanks(drop(kept, unused))
    text = func.text[:head_end] + join(kept) + func.text[body_start:]
    return Item("code", text, mask(text))


def _drop_empty_irq_off(parts: list[Item]) -> list[Item]:
    """local_irq_disable(); [blank/comments] local_irq_enable(); -> nothing."""
    code = [k for k, p in enumerate(parts) if p.kind == "code"]
    for a, b in zip(code, code[1:]):
        if parts[a].code.strip() == "local_irq_disable();" and \
                parts[b].code.strip() == "local_irq_enable();" and \
                all(parts[k].kind != "pp" for k in range(a, b)):
            return drop(parts, set(range(a + 1, b + 1)) | {a})
    return parts


# ---- the three files -----------------------------------------------------------

def rename(text: str) -> str:
    """RENAMES applied to code only (comments and strings untouched)."""
    m = mask(text)
    out, last = [], 0
    for hit in re.finditer(r"\b(" + "|".join(RENAMES) + r")\b", m):
        out.append(text[last:hit.start()])
        out.append(RENAMES[hit.group(1)])
        last = hit.end()
    out.append(text[last:])
    return "".join(out)


def remove_core(path: str, text: str) -> str:
    """The file at path without the tasklet core (pure: text in, text out)."""
    parts = items(text)
    seen: set[str] = set()
    for k, p in enumerate(parts):
        name = _function_name(p)
        if name in KEEP and path == SOFTIRQ_C:
            parts[k] = filter_body(p, name)
            seen.add(name)
    if path == SOFTIRQ_C and seen != set(KEEP):
        raise CoreError(f"{path}: expected functions {', '.join(sorted(set(KEEP) - seen))} "
                        "not found: not the 6.12 tasklet core")
    doomed = {k for k, p in enumerate(parts) if p.kind in ("code", "pp") and p.names()}
    if not doomed:
        raise CoreError(f"{path}: no tasklet core found in it")
    new = join(drop(parts, doomed))
    return rename(new) if path == SOFTIRQ_C else new


def leftovers(text: str) -> list[str]:
    """Tasklet identifiers still in the code (comments and strings aside):
    any API or internal name, and any identifier starting with tasklet_."""
    m = mask(text)
    return sorted(set(_NAMES_RE.findall(m)) | set(re.findall(r"\btasklet_\w*", m)) |
                  {n for n in RENAMES if re.search(r"\b" + n + r"\b", m)})


def check(path: str, old: str, new: str) -> None:
    left = leftovers(new)
    if left:
        raise CoreError(f"{path}: tasklet identifiers left after the edit: {', '.join(left)}")
    for s in MUST_KEEP.get(path, ()):
        if s not in old:
            raise CoreError(f"{path}: '{s}' not found: not the 6.12 tasklet core")
        if s not in new:
            raise CoreError(f"{path}: the edit removed '{s}', which must stay")
    if new.count("{") - new.count("}") != old.count("{") - old.count("}"):
        raise CoreError(f"{path}: the edit unbalanced the braces")


def unified(path: str, old: str, new: str) -> str:
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    lines = [f"diff -u a/{path} b/{path}\n"]
    for ln in difflib.unified_diff(a, b, f"a/{path}", f"b/{path}"):
        lines.append(ln if ln.endswith("\n") else ln + "\n\\ No newline at end of file\n")
    return "".join(lines)


def rename_string(path: str, text: str) -> str:
    """The SYMBOL_STRINGS edit of one file: exactly one occurrence."""
    was, now = SYMBOL_STRINGS[path]
    if text.count(was) != 1:
        raise CoreError(f"{path}: expected {was} once, found it {text.count(was)} times")
    return text.replace(was, now)


def patch(kdir: Path) -> str:
    """The core-removal patch for the tree at kdir (read only)."""
    out = []
    for path in FILES:
        f = kdir / path
        if not f.is_file():
            raise CoreError(f"KDIR has no {path}")
        old = scan.read_text(f)
        new = remove_core(path, old)
        check(path, old, new)
        out.append(unified(path, old, new))
    for path in SYMBOL_STRINGS:
        if (kdir / path).is_file():
            old = scan.read_text(kdir / path)
            out.append(unified(path, old, rename_string(path, old)))
    return "".join(out)
