# SPDX-License-Identifier: GPL-2.0-only
"""detasklet tasklet-free: the tasklet core removed from the kernel, as a patch.

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
spatch skips, see convert/rewrite/fixups.py), an enum, #if/#else blocks whose branches
become empty, kernel-doc comments, and DECLARE_EVENT_CLASS/DEFINE_EVENT
calls in a trace header that is read several times under different macro
definitions.  So each file is cut into top-level items (blank runs,
comments, preprocessor lines, declarations, function definitions) by the
lexer of ctext.lex, and items are dropped by what they name.  Three functions are kept and filtered statement
by statement instead; they are named in KEEP, and their new names in
RENAMES. The comments that teach tasklets, and the Documentation/ files
that name the API's functions, are reworded (tasklet_free_text), and so
are the comments of files that never used the API but name it
(rewrite/comments.py).  Every step checks what it expects to find: on a tree where the
core looks different the command stops with the reason, it never writes a
patch it did not verify (see check()).
"""

from __future__ import annotations

import re
from pathlib import Path

from ... import __version__
from ...ctext.gitdiff import file_diff, parse
from ...ctext.lex import Item, items, join, line_end, mask, sub_code
from ...ctext.sources import read_text
from ...ctext.tasklet import (API_IDENTIFIERS, CORE_FILES, PREFIXED_RE, RAISE_TASKLET_SOFTIRQ_RE,
                              find_uses)
from ...errors import CoreError, OutError
from ...kdir import check_bh_workqueues, kernel_version
from ...out import place
from ...out.staging import locked, write_file, write_marker
from ..rewrite import comments as rewrite_comments
from . import tasklet_free_text

FILES = CORE_FILES
INTERRUPT_H, TRACE_IRQ_H, SOFTIRQ_C = FILES

# Who the removal goes To:, besides get_maintainer.pl's answer for its
# files (it names only LKML for kernel/softirq.c and interrupt.h): the IRQ
# subsystem, whose tip irq/core branch takes softirq changes, and the
# workqueue maintainers, whose BH workqueues run what tasklets ran. Their
# M: and R: people, read from KDIR's MAINTAINERS (series.maintainers).
TO_SECTIONS = ("IRQ SUBSYSTEM", "WORKQUEUE")

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
    sorted(set(API_IDENTIFIERS) | INTERNALS, key=len, reverse=True)) + r")\b")

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
_RENAME_RE = re.compile(r"\b(" + "|".join(RENAMES) + r")\b")


# What the result must still contain, per file (checked after the edit).
MUST_KEEP = {
    SOFTIRQ_C: ("workqueue_softirq_action(false);", "workqueue_softirq_action(true);",
                "workqueue_softirq_dead(cpu);", "open_softirq(TASKLET_SOFTIRQ,",
                "open_softirq(HI_SOFTIRQ,"),
    INTERRUPT_H: ("TASKLET_SOFTIRQ,", "HI_SOFTIRQ=0,"),
    TRACE_IRQ_H: ("softirq_name(TASKLET)", "DEFINE_EVENT(softirq, softirq_raise,"),
}


def _names(p: Item) -> set[str]:
    """The tasklet names an item's code holds."""
    return set(_NAMES_RE.findall(p.code))


def _items(text: str) -> list[Item]:
    try:
        return items(text)
    except ValueError as e:
        raise CoreError(f"cannot cut the file into items: {e}") from None


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
    head_end = line_end(func.text, open_)
    body_start = func.text.rfind("\n", 0, close) + 1
    body = _items(func.text[head_end:body_start])
    doomed = {k for k, p in enumerate(body) if _names(p)}
    if name == "takeover_tasklets":
        doomed |= {k for k, p in enumerate(body) if RAISE_TASKLET_SOFTIRQ_RE.match(p.code)}
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
    return sub_code(_RENAME_RE, lambda m: RENAMES[m.group(1)], text)


def remove_core(path: str, text: str) -> str:
    """The file at path without the tasklet core (pure: text in, text out)."""
    parts = _items(text)
    seen: set[str] = set()
    for k, p in enumerate(parts):
        name = _function_name(p)
        if name in KEEP and path == SOFTIRQ_C:
            parts[k] = filter_body(p, name)
            seen.add(name)
    if path == SOFTIRQ_C and seen != set(KEEP):
        raise CoreError(f"{path}: expected functions {', '.join(sorted(set(KEEP) - seen))} "
                        "not found: not the 6.12 tasklet core")
    doomed = {k for k, p in enumerate(parts) if p.kind in ("code", "pp") and _names(p)}
    if not doomed:
        raise CoreError(f"{path}: no tasklet core found in it")
    new = join(drop(parts, doomed))
    return rename(new) if path == SOFTIRQ_C else new


def leftovers(text: str) -> list[str]:
    """Tasklet identifiers still in the code (comments and strings aside):
    any API or internal name, and any identifier starting with tasklet_."""
    m = mask(text)
    return sorted(set(_NAMES_RE.findall(m)) | set(PREFIXED_RE.findall(m)) |
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
        old = read_text(f)
        new = remove_core(path, old)
        check(path, old, new)
        out.append(file_diff(path, old, tasklet_free_text.comments(path, new)))
    for path in SYMBOL_STRINGS:
        if (kdir / path).is_file():
            old = read_text(kdir / path)
            out.append(file_diff(path, old, rename_string(path, old)))
    out += comment_diffs(kdir)
    docs = tasklet_free_text.docs(kdir)
    left = tasklet_free_text.doc_leftovers(kdir, {p: new for p, (_, new) in docs.items()})
    if left:
        raise CoreError("Documentation/ still names the tasklet API after the edits: " + "; ".join(
            f"{p}: {', '.join(n)}" for p, n in sorted(left.items())))
    out += [file_diff(p, old, new) for p, (old, new) in sorted(docs.items())]
    return "".join(out)


def comment_diffs(kdir: Path) -> list[str]:
    """The diffs of the files that never used the tasklet API but name it
    in a comment: the words of rewrite.comments, applied here (a user's
    comments change in its own patch)."""
    out = []
    for path in sorted(rewrite_comments.TABLE):
        f = kdir / path
        if path in FILES or path in SYMBOL_STRINGS or not f.is_file():
            continue
        old = read_text(f)
        if find_uses(old):
            continue
        new = rewrite_comments.rewrite(path, old)
        if new != old:
            out.append(file_diff(path, old, new))
    return out


def main(kdir_arg: str, out_arg: str) -> int:
    """OUT/tasklet-free.patch for the tree at kdir_arg (an OUT of its own
    is made when missing)."""
    kdir = Path(kdir_arg).resolve()
    version = kernel_version(kdir)
    check_bh_workqueues(kdir)
    out = place.resolve(out_arg, kdir)
    text = patch(kdir)
    place.check_ours(out, must_exist=False)
    with locked(out):
        place.check_ours(out, must_exist=False)
        if not out.exists():
            try:
                out.mkdir(parents=True)
                write_marker(out, version, __version__)
            except OSError as e:
                raise OutError(f"cannot make {out}: {e.strerror}") from None
        dst = write_file(out, "tasklet-free.patch", text)
    print(f"patch: {dst} ({', '.join(fd.path for fd in parse(text))})")
    return 0
