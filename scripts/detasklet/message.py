"""The commit message of one driver's patch, derived from its diff.

Which tasklet APIs a patch replaces is read from its removed lines, which
queue the work goes to from its added lines; the message says why, the
mapping used in this driver, the points where behaviour differs, and
whether and how it was compile-tested (report.json "build" records from
`make compile-test`). Pure: data in, text out; lines wrapped at 72.
"""

from __future__ import annotations

import re
import textwrap

from .gitdiff import FileDiff

WRAP = 72

# (API as it appears in the removed lines, replacement, note or "")
MAPPING: list[tuple[str, str, str, str]] = [
    # (key, regex on removed lines, "old -> new" row, note)
    ("struct", r"\bstruct\s+tasklet_struct\b", "struct tasklet_struct -> struct work_struct", ""),
    ("DECLARE_TASKLET_OLD", r"\bDECLARE_TASKLET_OLD\s*\(", "DECLARE_TASKLET_OLD() -> DECLARE_WORK()",
     "The DECLARE_TASKLET_OLD() callback ignored its argument; it now takes "
     "the struct work_struct pointer and still ignores it."),
    ("DECLARE_TASKLET", r"\bDECLARE_TASKLET\s*\(", "DECLARE_TASKLET() -> DECLARE_WORK()", ""),
    ("tasklet_setup", r"\btasklet_setup\s*\(", "tasklet_setup() -> INIT_WORK()", ""),
    ("tasklet_init", r"\btasklet_init\s*\(", "tasklet_init() -> INIT_WORK()",
     "Callbacks that were registered with tasklet_init() and took an "
     "unsigned long now take the struct work_struct pointer; where the "
     "data passed was the object that contains the work item, they find "
     "it with from_work()."),
    ("from_tasklet", r"\bfrom_tasklet\s*\(", "from_tasklet() -> from_work()", ""),
    ("tasklet_hi_schedule", r"\btasklet_hi_schedule\s*\(",
     "tasklet_hi_schedule() -> queue_work(system_bh_highpri_wq, ...)", ""),
    ("tasklet_schedule", r"\btasklet_schedule\s*\(",
     "tasklet_schedule() -> queue_work(system_bh_wq, ...)", ""),
    ("tasklet_kill", r"\btasklet_kill\s*\(", "tasklet_kill() -> cancel_work_sync()", ""),
    ("tasklet_disable_nosync", r"\btasklet_disable_nosync\s*\(",
     "tasklet_disable_nosync() -> disable_work()", ""),
    ("tasklet_disable", r"\btasklet_disable\s*\(", "tasklet_disable() -> disable_work_sync()", ""),
    ("tasklet_disable_in_atomic", r"\btasklet_disable_in_atomic\s*\(",
     "tasklet_disable_in_atomic() -> disable_work() and a wait on work_busy()",
     "tasklet_disable_in_atomic() becomes disable_work() and a loop that "
     "waits, without sleeping, until work_busy() no longer reports the "
     "callback running, as tasklet_unlock_spin_wait() did. "
     "disable_work_sync() would not do here: it may sleep, and it takes the "
     "pool lock with raw_spin_lock_irq(), which turns interrupts back on."),
    ("tasklet_enable", r"\btasklet_enable\s*\(", "tasklet_enable() -> enable_and_queue_work()", ""),
    ("tasklet_unlock_wait", r"\btasklet_unlock_wait\s*\(", "tasklet_unlock_wait() -> flush_work()",
     ""),
    ("TASKLET_STATE_SCHED", r"\bTASKLET_STATE_SCHED\b",
     "test_bit(TASKLET_STATE_SCHED, ...) -> work_pending()", ""),
]


def apis(files: list[FileDiff]) -> list[str]:
    """The MAPPING keys whose API is removed somewhere in files."""
    removed = "".join(ln for f in files for ln in f.lines("-"))
    # DECLARE_TASKLET( must not also count DECLARE_TASKLET_OLD(
    found = []
    for key, rx, _, _ in MAPPING:
        if re.search(rx, removed):
            found.append(key)
    return found


def para(text: str) -> str:
    return textwrap.fill(text, WRAP, break_long_words=False, break_on_hyphens=False)


def bullet(text: str) -> str:
    return textwrap.fill(text, WRAP, initial_indent="- ", subsequent_indent="  ",
                         break_long_words=False, break_on_hyphens=False)


def build_sentence(paths: list[str], builds: dict[str, dict]) -> str:
    """What make compile-test said about these files, in one paragraph."""
    recs = {p: builds[p] for p in paths if p in builds}
    if not recs:
        return ("Not compile-tested by the tool: make compile-test has not "
                "recorded a build of these files.")
    ok = sorted(p for p, b in recs.items() if b.get("converted") == "ok")
    bad = sorted(p for p, b in recs.items() if b.get("converted") == "error")
    arches = sorted({a for p in ok for a in str(recs[p].get("arch", "")).split("+") if a})
    configs = sorted({str(recs[p].get("config", "")) for p in ok} - {""})
    parts = []
    if ok:
        parts.append(f"Compile-tested with {' and '.join(configs) or 'a config'} on "
                     f"{', '.join(arches) or 'the host'}: "
                     + ("all the changed files build." if len(ok) == len(paths) else
                        f"{len(ok)} of the {len(paths)} changed files build."))
    if bad:
        parts.append(f"FAILS TO BUILD: {', '.join(bad)}.")
    rest = sorted(set(paths) - set(ok) - set(bad))
    if rest:
        why = sorted({str(recs[p].get("log", "")) for p in rest if p in recs} - {""})
        parts.append(f"Not built by the tool: {', '.join(rest)}"
                     + (f" ({'; '.join(why)})" if why else "") + ".")
    return " ".join(parts)


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
    "system_bh_wq": "queue_work(system_bh_wq, ...)",
    "system_bh_highpri_wq": "queue_work(system_bh_highpri_wq, ...)",
}


def _row(key: str, row: str, sites: list[dict]) -> str:
    """A mapping row; for kill and enable, the replacements this patch uses."""
    if key not in ("tasklet_kill", "tasklet_enable"):
        return row
    used = sorted({CALLS[s["replacement"]] for s in sites if s["api"] == key})
    return f"{key}() -> {' or '.join(used)}" if used else row


def _fns(ss: list[dict]) -> str:
    names = sorted({f"{s['function']}()" if s["function"] else s["path"] for s in ss})
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


def site_bullets(sites: list[dict]) -> list[str]:
    """Where a replacement is not the same operation, why it is right for
    this driver: one bullet per reason, naming the functions."""
    groups: dict[tuple[str, str, str, str], list[dict]] = {}
    for s in sites:
        if s.get("verdict"):
            groups.setdefault((s["api"], s["item"], s["replacement"], s["why"]), []).append(s)
    out = []
    for (api, item, rep, why), ss in sorted(groups.items(), key=lambda kv: (
            kv[1][0]["path"], kv[1][0]["line"])):
        out.append(f"{api}({item}) in {_fns(ss)} -> {CALLS[rep]}: {why}"
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


def body(driver: str, files: list[FileDiff], builds: dict[str, dict],
         shared: str = "", kept_names: bool = False, extra: list[str] | None = None,
         sites: list[dict] | None = None) -> str:
    """The message between the Subject and the Signed-off-by."""
    keys = apis(files)
    sites = sites or []
    rows = [_row(key, row, sites) for key, _, row, _ in MAPPING if key in keys]
    added = "".join(ln for f in files for ln in f.lines("+"))
    notes = [note for key, _, _, note in MAPPING if key in keys and note
             and (key != "tasklet_init" or "from_work(" in added)]
    wqs = sorted(set(re.findall(r"\benable_and_queue_work\s*\(\s*(\w+)", added)))
    out = [
        para("Tasklets are deprecated: the interface has long-standing design "
             "problems, and the remaining users are being moved off it so that "
             "it can be removed. BH workqueues (WQ_BH, since v6.9) run their "
             "work items from the same softirqs as tasklets, on the CPU that "
             "queued them, so this keeps the execution context of the "
             "deferred work while moving it to the workqueue API."),
        "",
        para(f"In {driver}, the tasklet API is replaced as follows:"),
        "",
        *[f"  {r}" for r in rows],
    ]
    if wqs:
        out += ["", para("enable_and_queue_work() uses the queue of the item's "
                         f"queue_work() calls ({', '.join(wqs)}).")]
    notes += extra or []
    notes += [n for n in [tracked_note(sites)] if n] + site_bullets(sites)
    if notes:
        out += ["", para("Where the behaviour differs:"), ""]
        for n in notes:
            out += [bullet(n)]
    if shared:
        out += ["", para(shared)]
    if kept_names:
        out += ["", para("Identifiers named after tasklets are kept, to keep this "
                         "change to the API; renaming them can follow separately.")]
    out += ["", para("The conversion was made with Coccinelle semantic patches "
                     "(detasklet); no tasklet API is left in the changed files."),
            "", para(build_sentence([f.path for f in files], builds))]
    return "\n".join(out) + "\n"
