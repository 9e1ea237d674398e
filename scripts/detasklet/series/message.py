# SPDX-License-Identifier: GPL-2.0-only
"""The words of the series: each driver's commit message (the cover letters'
are letter.py's, which shares the helpers here).

Which tasklet APIs a patch replaces is read from its removed lines, which
queue the work goes to from its added lines; the message says why, the
rows of the mapping (mapping.py) used in this driver, the points where
behaviour differs, and what was measured for its files (evidence.py:
compile-test's build records, make runtime's workloads).
Pure: data in, text out; lines wrapped at 72.
"""

from __future__ import annotations

import re
import textwrap
from typing import Collection

from ..ctext.gitdiff import FileDiff
from ..ctext.lex import mask
from ..ctext.tasklet import API_RE, MEMBER_LINE_RE, SAYS_TASKLET_RE
from ..convert.rewrite.comments import TABLE as COMMENT_TABLE
from ..mapping import MAPPING, used
from .evidence import Evidence
from .initnote import init_notes

WRAP = 72


def apis(files: list[FileDiff], keys: dict[str, list[str]] | None = None) -> list[str]:
    """The mapping keys whose API is removed somewhere in files; for a file
    in keys (report.json "keys": a driver patch or an analysis rewrote it
    before the rules), the keys of the text the rules converted instead: a
    call the driver patch removed was not replaced, one it added was."""
    keys = keys or {}
    removed = "".join(ln for f in files if f.path not in keys for ln in f.lines("-"))
    found = {row.key for row in used(mask(removed))}   # a comment's tasklet_kill() is not one
    found |= {k for f in files for k in keys.get(f.path, [])}
    return [row.key for row in MAPPING if row.key in found]


def para(text: str) -> str:
    return textwrap.fill(text, WRAP, break_long_words=False, break_on_hyphens=False)


def paras(*texts: str) -> list[str]:
    """Each non-empty text as a paragraph, after an empty line."""
    return [ln for t in texts if t for ln in ("", para(t))]


def _be(n: int) -> str:
    return "is" if n == 1 else "are"


def bullet(text: str) -> str:
    return textwrap.fill(text, WRAP, initial_indent="- ", subsequent_indent="  ",
                         break_long_words=False, break_on_hyphens=False)


# The replacement of a site, as the mapping rows and bullets name it.
CALLS = {
    "enable_work": "enable_work()",
    "enable_and_queue_work": "enable_and_queue_work()",
    "tracked": "enable_work() and a tracked re-queue",
    "cancel_work_sync": "cancel_work_sync()",
    "flush_work": "flush_work()",
    "flush_then_cancel": "flush_work() + cancel_work_sync()",
    "disable_work_sync": "disable_work_sync()",
    "disable_work": "disable_work()",
    "removed": "no call (the item is declared enabled)",
    "system_bh_wq": "queue_work(system_bh_wq, ...)",
    "system_bh_highpri_wq": "queue_work(system_bh_highpri_wq, ...)",
    # TARGET=thread (convert.target.thread)
    "system_percpu_wq": "queue_work(system_percpu_wq, ...)",
    "system_wq": "queue_work(system_wq, ...)",
    "system_highpri_wq": "queue_work(system_highpri_wq, ...)",
}


IN_ATOMIC = "tasklet_disable_in_atomic"
# Why disable_work_sync() may stand for tasklet_disable_in_atomic(), once
# per message that uses it; each site's decision says why it may there.
SYNC_IN_ATOMIC_NOTE = (
    "tasklet_disable_in_atomic() becomes disable_work_sync() where the "
    "decision below shows that the call runs in process context, or with "
    "interrupts on outside hardirq on a work item already queued on a BH "
    "workqueue: there disable_work_sync() waits for a running callback "
    "itself, busy-waiting for a BH work item as the tasklet call did.")


def _call(api: str, rep: str) -> str:
    """The replacement of a site, as the mapping rows and bullets name it."""
    if api == IN_ATOMIC and rep == "disable_work":
        return "disable_work() and a wait on work_busy()"
    if api == "tasklet_kill" and rep == "removed":
        return "no call (the disable before it has cancelled)"
    return CALLS[rep]


def _row(key: str, row: str, sites: list[dict]) -> str:
    """A mapping row; for kill, enable and disable_in_atomic, the
    replacements this patch uses."""
    if key not in ("tasklet_kill", "tasklet_enable", IN_ATOMIC):
        return row
    used_ = sorted({_call(key, s["replacement"]) for s in sites if s["api"] == key})
    return f"{key}() -> {' or '.join(used_)}" if used_ else row


_QUEUE_ROWS = ("tasklet_schedule", "tasklet_hi_schedule")


def _queue_row(key: str, row: str, sites: list[dict], removed: str) -> str:
    """The row of a schedule API from the queues its calls went to, when
    sites (decided: smc91x's tasklet_schedule() -> system_bh_highpri_wq)
    cover every call of it removed (masked text); else the default row,
    with the queues of the sites that differ."""
    if key not in _QUEUE_ROWS:
        return row
    ss = [s for s in sites if s["api"] == key and s.get("replacement") in CALLS]
    calls = len(re.findall(r"\b" + key + r"\s*\(", removed))
    reps = sorted({CALLS[s["replacement"]] for s in ss})
    if not reps:
        return row
    if calls and len(ss) < calls:
        reps = sorted({row.partition(" -> ")[2], *reps})
    return f"{key}() -> {' or '.join(reps)}"


def patch_rows(files: list[FileDiff], sites: list[dict],
               keys: dict[str, list[str]] | None = None, queues: dict[str, str] | None = None,
               mapped: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """A patch's mapping block, (key, row): the rows of the API it removes
    (apis()) with what its sites became; mapped: report.json "mapping", the
    rows of an in-place driver patch, for the generic row or sites' calls."""
    table = apis(files, keys)
    removed = mask("".join(ln for f in files if f.path not in (keys or {})
                           for ln in f.lines("-")))
    out = []
    for r in MAPPING:
        if r.key not in table:
            continue
        row = _queue_row(r.key, _row(r.key, r.new, sites), sites, removed)
        mine = (mapped or {}).get(r.key)
        if mine:
            row = row + " or " + mine.partition(" -> ")[2] if row != r.new else mine
        out.append((r.key, _requeue(row, queues or {})))
    return out


def _notes(keys: list[str], sites: list[dict], added: str | None = None,
           removed: str | None = None, mapped: Collection[str] = ()) -> list[str]:
    """The notes of the mapping rows used (keys). disable_in_atomic's note
    is about its wait loop: only where a site keeps it (or no site says);
    a site decided to be disable_work_sync() brings its own note. added
    and removed (masked) lines: tasklet_init's note is its callbacks'
    (initnote.py). None for a row a driver patch states (mapped)."""
    reps = {s["replacement"] for s in sites if s["api"] == IN_ATOMIC}
    out = []
    for r in MAPPING:
        if r.key not in keys or r.key in mapped:
            continue
        if r.key == IN_ATOMIC and "disable_work_sync" in reps:
            out.append(SYNC_IN_ATOMIC_NOTE)
        if r.key == "tasklet_init" and added is not None and removed is not None:
            out += init_notes(removed, added)
            continue
        if not r.note or (r.key == "tasklet_init" and added is not None
                          and "from_work(" not in added):
            continue
        if r.key != IN_ATOMIC or not reps or "disable_work" in reps:
            out.append(r.note)
    return out


def _wrap_row(row: str, width: int = 72) -> list[str]:
    """A mapping row, indented; a long one continues under its right side."""
    if len(row) + 2 <= width:
        return [f"  {row}"]
    left, _, right = row.partition(" -> ")
    lines, pad = [f"  {left} -> "], " " * (len(left) + 6)
    for i, alt in enumerate(right.split(" or ")):
        word = alt if i == 0 else f"or {alt}"
        if i and len(lines[-1]) + 1 + len(word) > width:
            lines.append(pad + word)
        else:
            lines[-1] += ("" if i == 0 else " ") + word
    return lines


def _fns(ss: list[dict]) -> str:
    names = sorted({f"{s['function']}()" if s["function"] else s["path"] for s in ss})
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


def site_bullets(sites: list[dict]) -> list[str]:
    """Where a replacement is not the same operation, why it is right for
    this driver: one bullet per reason, naming the functions."""
    # two structs' members of one name are two items: each bullet says whose
    # (a site whose struct was not read is no second struct: jme's rxclean_task)
    structs = {i: {s.get("struct", "") for s in sites if s["item"] == i} - {""}
               for i in {s["item"] for s in sites}}
    groups: dict[tuple[str, str, str, str, str], list[dict]] = {}
    for s in sites:
        if s.get("verdict"):
            whose = s.get("struct", "") if len(structs[s["item"]]) > 1 else ""
            groups.setdefault((s["api"], s["item"], whose, s["replacement"], s["why"]),
                              []).append(s)
    out = []
    for (api, item, whose, rep, why), ss in sorted(groups.items(), key=lambda kv: (
            kv[1][0]["path"], kv[1][0]["line"])):
        of = f" of {whose}" if whose else ""
        out.append(f"{api}({item}){of} in {_fns(ss)} -> {_call(api, rep)}: {why}"
                   + ("" if why.endswith(".") else "."))
    return out


def tracked_note(sites: list[dict]) -> str:
    """What the tracked enable is, once per patch that uses it."""
    items = sorted({s["item"] for s in sites if s["replacement"] == "tracked"})
    if not items:
        return ""
    return ("The tracked enable: queueing a disabled work item does nothing, where a "
            "tasklet scheduled while disabled ran once enabled, and "
            "enable_and_queue_work() would run the callback even when nothing was "
            "asked for. So a flag (" + ", ".join(f"{i}_queued" for i in items) +
            ") is set where the item is queued and cleared first in its callback, and "
            "the enable queues the item again only if the flag is set: no run is lost "
            "and none is added.")


def unused_body(files: list[FileDiff], ev: Evidence) -> str:
    """The message of a patch that only deletes forward declarations of
    struct tasklet_struct that nothing uses."""
    paths = [f.path for f in files]
    where = ", ".join(paths[:-1]) + " and " + paths[-1] if len(paths) > 1 else paths[0]
    members = [m.group(1) for f in files for ln in f.lines("-")
               for m in [MEMBER_LINE_RE.fullmatch(ln if ln.endswith("\n") else ln + "\n")] if m]
    why = "Remove the declaration" if not members else "Remove " + (
        "it" if len(members) == 1 else "them") + " and " + (
        "its kernel-doc line" if len(members) == 1 else "their kernel-doc lines")
    what = (f"declares struct tasklet_struct, but nothing in "
            f"{'them' if len(paths) > 1 else 'it'} uses the type any more"
            if not members else
            "declares the struct tasklet_struct member" + ("s " if len(members) > 1 else " ")
            + ", ".join(members) + ", but no code of the tree names "
            + ("them" if len(members) > 1 else "it") + " (a header nothing includes, or a "
            "member nothing sets up, queues or reads)")
    return "\n".join([
        para(f"{where} {what}. {why}: tasklets are deprecated and their remaining users "
             "are being moved to BH workqueues, so that the tasklet API can be removed."),
        *paras(*ev.sentences(paths))]) + "\n"


_COMMENT_RE = re.compile(r"/\*+\s*(.*?)\s*(?:\*/|$)|//\s*(.*)$|^\s*\*+\s*(.*?)\s*(?:\*/)?$")


def stale_comments(files: list[FileDiff]) -> tuple[list[str], int]:
    """The driver's own comments on the lines of the patch (context, or
    changed lines that keep a comment of the old text) that name the
    tasklet API, quoted as 'path: "text"'; and how many others say
    'tasklet'. The tool's own comments do not count."""
    quotes: list[str] = []
    others = 0
    for f in files:
        old = {c for ln in f.lines("-") for c in _comments(ln)}
        for _, hunk in f.hunks:
            for ln in hunk:
                if not ln.startswith((" ", "+")):
                    continue
                for c in _comments(ln[1:]):
                    if ln.startswith("+") and c not in old:
                        continue
                    if API_RE.search(c):
                        quotes.append(f'{f.path}: "{c}"')
                    elif SAYS_TASKLET_RE.search(c):
                        others += 1
    return list(dict.fromkeys(quotes)), others


def _comments(line: str) -> list[str]:
    m = _COMMENT_RE.search(line.rstrip("\n"))
    text = next((g for g in m.groups() if g), "") if m else ""
    return [text] if text else []


def prep_body(prep: dict, files: list[FileDiff], ev: Evidence) -> str:
    """The message of a subsystem's prep patch (report.json "prep"): the
    policy's own words, then how it built."""
    paras = [" ".join(p.split()) for p in prep["message"].strip().split("\n\n")]
    return "\n\n".join(para(p) for p in paras + ev.sentences([f.path for f in files])) + "\n"


def driver_prep_body(prep: dict, files: list[FileDiff], ev: Evidence) -> str:
    """The message of a driver's prep patch (report.json "driver_prep"):
    the reason its semantic patch gives, then how it built, which make
    compile-test only knows with the conversion after it applied."""
    paths = [f.path for f in files]
    said = ev.sentences(paths)
    if said:
        said[0] = ("What follows was measured with the next patch applied, not with "
                   "this patch alone. " + said[0])
    own = [" ".join(p.split()) for p in prep["message"].strip().split("\n\n")]
    return "\n".join([para(own[0]), *paras(*own[1:], *said)]) + "\n"


def fix_body(fix: dict) -> str:
    """The message of a driver's fix (report.json "driver_prep" with
    "fix"): the bug and its fix in the driver's terms, as the person who
    read the driver wrote them, and the Fixes: tag when the commit that
    brought the bug in is known. Nothing about building: make compile-test
    builds a driver's files with its conversion applied, never this patch
    alone."""
    text = "\n\n".join(para(p_) for p_ in fix["message"].strip().split("\n\n")) + "\n"
    return text + (f"\nFixes: {fix['fixes']}\n" if fix.get("fixes") else "")


def core_body(files: list[str] | tuple[str, ...] = ()) -> str:
    """The message of the tasklet core's removal, the last patch; files:
    its files (the Documentation/ ones are named, and so are those whose
    comments alone change, convert/rewrite/comments.py)."""
    docs = [f for f in files if f.startswith("Documentation/")]
    worded = [f for f in files if f in COMMENT_TABLE]
    return "\n\n".join(para(p) for p in (
        "Every user of the tasklet API has been moved to BH workqueues, by the "
        "patches of this conversion in their maintainers' trees, so the tasklet "
        "machinery has no caller left. Remove it: struct tasklet_struct, "
        "DECLARE_TASKLET*(), the TASKLET_STATE_* bits and the tasklet functions "
        "from <linux/interrupt.h>, the per-CPU tasklet lists and their processing "
        "from kernel/softirq.c, and the tasklet_entry/tasklet_exit tracepoints.",
        "The TASKLET_SOFTIRQ and HI_SOFTIRQ vectors stay, since BH workqueues run "
        "from them: their actions become workqueue_softirq_action(false) and "
        "workqueue_softirq_action(true) alone, renamed bh_workqueue_action() and "
        "bh_workqueue_hi_action(), and the CPU-dead callback keeps "
        "workqueue_softirq_dead(), renamed softirq_cpu_dead(). lkdtm names "
        "tasklet_action in a kprobe string, which follows the rename.",
        "The comments of <linux/interrupt.h> (which softirq users should use "
        "instead) and kernel/softirq.c (what runs from the softirqs) that named "
        "tasklets now name BH workqueues"
        + (", and " + " and ".join(docs) + " no longer name the removed functions."
           if docs else "."),
        *([(", ".join(worded[:-1]) + " and " + worded[-1] if len(worded) > 1 else worded[0])
           + " do not use tasklets but named the tasklet API in comments; those "
           "comments no longer name it."] if worded else []),
        "This patch applies once every other patch of the conversion is in; "
        "before that, the remaining users would no longer build.")) + "\n"


def _requeue(text: str, queues: dict[str, str]) -> str:
    for s, o in queues.items():
        text = re.sub(r"\b" + s + r"\b", o, text)
    return text


def thread_intro(thread: dict[str, str], guards: list[dict]) -> str:
    """What TARGET=thread changes, for a patch that moves its work to
    process context (convert.target.thread)."""
    names = " and ".join(sorted(thread.values()))
    wqs = f"{'workqueues' if len(thread) > 1 else 'workqueue'} {names}, in process context"
    fns = sorted({f"{g['work_function']}()" for g in guards})
    named = (", ".join(fns[:-1]) + " and " + fns[-1]) if len(fns) > 1 else "".join(fns)
    return (f"This moves the deferred work to the per-CPU {wqs}: it is queued on the CPU "
            "that schedules it, except while it still runs on another CPU (it is queued "
            "there, so it never runs twice at once), and a CPU going offline leaves its "
            "pending work to kworkers that run on other CPUs. It runs in a kworker that "
            "the scheduler sees, rather than at the next softirq exit, where it delayed "
            "the other softirqs of that CPU. A tasklet callback ran with softirqs off, so "
            "a lock it shares with softirq code could be taken with a plain spin_lock(). "
            "To keep that, each callback now runs between local_bh_disable() and "
            f"local_bh_enable(), called from a work function of its own ({named}). "
            "The callbacks therefore still must not sleep. A callback's guard can go once "
            "every lock it takes against softirq or hardirq context is taken with _bh or "
            "_irqsave, or is its own.")


def body(driver: str, files: list[FileDiff], ev: Evidence,
         shared: str = "", kept_names: bool = False, extra: list[str] | None = None,
         sites: list[dict] | None = None, queues: dict[str, str] | None = None,
         keys: dict[str, list[str]] | None = None, thread: dict[str, str] | None = None,
         guards: list[dict] | None = None, kept_bh: str = "", mapped: dict[str, str] | None = None,
         kept_comments: bool = False, queues_by: str = "") -> str:
    """The message between the Subject and the Signed-off-by; sites: the
    verdicts of the patch's enable/kill/disable sites (report.json); queues:
    system wq -> the subsystem's that this patch queues on instead
    (series.plan.policy_queues), added by the patch queues_by (its subject);
    keys: report.json "keys", the mapping rows of a file that something
    rewrote before the rules (apis()). TARGET=thread: thread, BH workqueue
    -> process-context one when the patch moves the work out of softirq
    context, with the guards of its callbacks (convert.target.thread); kept_bh,
    why a patch of such a run stays on BH workqueues; mapped: patch_rows();
    kept_comments: its files keep comments that say tasklet outside the hunks."""
    table = apis(files, keys)
    sites = sites or []
    added = "".join(ln for f in files for ln in f.lines("+"))
    thread = {s: o for s, o in (thread or {}).items() if re.search(r"\b" + o + r"\b", added)}
    queues = {**(queues or {}), **thread}
    rows = [r for _, r in patch_rows(files, sites, keys, queues, mapped)]
    notes = _notes(table, sites, added, mask("".join(ln for f in files for ln in f.lines("-"))),
                   mapped or {})
    wqs = sorted(set(re.findall(r"\benable_and_queue_work\s*\(\s*(\w+)", added)))
    out = [
        para("Tasklets are deprecated: the interface has long-standing design "
             "problems, and the remaining users are being moved off it so that "
             "it can be removed. " + (thread_intro(thread, guards or []) if thread else
             "BH workqueues (WQ_BH, since v6.9) run their "
             "work items from the same softirqs as tasklets, on the CPU that "
             "queued them, so this keeps the execution context of the "
             "deferred work while moving it to the workqueue API.")),
        "",
        para(f"In {driver}, the tasklet API is replaced as follows:"),
        "",
        *[ln for r in rows for ln in _wrap_row(r)],
    ]
    if kept_bh:
        out += ["", para("The work stays in softirq context, on BH workqueues, rather "
                         "than moving to a process-context workqueue: "
                         + " ".join(kept_bh.split()))]
    if queues and not thread:
        names = " and ".join(queues.values())
        by = f'the patch "{queues_by}"' if queues_by else "an earlier patch"
        out += ["", para(f"The work is queued on {names}, the BH workqueue{'s' * (len(queues) > 1)}"
                         f" of the subsystem that {by} adds, rather than on {' and '.join(queues)}"
                         ".")]
    if wqs:
        out += ["", para("enable_and_queue_work() uses the queue of the item's "
                         f"queue_work() calls ({', '.join(wqs)}).")]
    notes += extra or []
    notes += [n for n in [tracked_note(sites)] if n] + site_bullets(sites)
    notes = [_requeue(n, queues) for n in notes]
    if notes:
        out += ["", para("Where the conversion is more than a rename:"), ""]
        for n in notes:
            out += [bullet(n)]
    if shared:
        out += ["", para(shared)]
    quotes, others = stale_comments(files)
    if kept_names or others or kept_comments:
        what = " and ".join(w for w, on in (("identifiers named after tasklets", kept_names),
                                             ("comments that speak of the tasklet",
                                              others or kept_comments))
                            if on)
        out += ["", para(f"{what[0].upper()}{what[1:]} are left as they are, so that "
                         "this patch changes only the API; renaming them can follow "
                         "separately.")]
    if quotes:
        out += ["", para("These comments on the changed lines name a tasklet call "
                         "that is gone and need rewording:"), ""]
        out += [bullet(q) for q in quotes]
    out += ["", para("The conversion was made with Coccinelle."),
            *paras(*ev.sentences([f.path for f in files]))]
    return "\n".join(out) + "\n"
