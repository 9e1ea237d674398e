# SPDX-License-Identifier: GPL-2.0-only
"""The cover letters' text: the series, the order its patches apply in, the
mapping of the whole series and where the behaviour differs, the evidence
(evidence.py), the latency make bench measured on the hot paths it
touches (hotpaths.py, OUT/bench/bench.json), and the files left out, with
why; and the cover letter of a series of fixes (fixes_cover()). The commit
messages are message.py's, whose helpers it shares.
Pure: data in, text out; lines wrapped at 72.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..ctext.gitdiff import FileDiff
from ..mapping import MAPPING
from ..out.files import Status
from . import hotpaths
from .evidence import Evidence
from .hotpaths import HotPath
from ..ctext.lex import mask
from .message import _be, _notes, _requeue, _wrap_row, apis, bullet, para, patch_rows

if TYPE_CHECKING:
    from .plan import Patch


CONTEXT = {"hardirq": "called from a hardirq", "process": "called from process context"}


def latency(bench: dict | None, hot: list[HotPath], target: str = "bh") -> list[str]:
    """What make bench measured on the hot paths hot, for a cover letter:
    nothing without a bench result or a hot path, or when the result holds
    no figures for them. Each number is one of bench.json's."""
    if not bench:
        return []
    groups: dict[tuple[str, str], list[HotPath]] = {}
    for h in hot:
        groups.setdefault((h.mech, h.source), []).append(h)
    body, used, shown = [], [], 0
    for (mech, source), hs in groups.items():
        runs = hotpaths.runs(bench, hs[0], target)
        if not runs:
            continue
        used += runs
        shown += len(hs)
        repl = hotpaths.replacement(mech, target)
        wq = repl[1] if repl else mech
        hnames = [h.name for h in hs]
        names = ", ".join(hnames[:-1]) + " and " + hnames[-1] if len(hnames) > 1 else hnames[0]
        body += ["", para(f"{names}: {mech}_schedule() against queue_work({wq}, ...), "
                          f"{CONTEXT[source]}:"), ""]
        body += [bullet(hotpaths.sentence(bench, hs[0], r, target)) for r in runs]
    if not body:
        return []
    k = hotpaths.kernel(bench)
    slow = hotpaths.not_hardware(bench, used)
    out = ["", f"Latency on the hot path{'s' if shown > 1 else ''} this series touches:",
           "", para("make bench, a KUnit benchmark, timed the delay from the schedule "
                    "call to the first line of the callback, for the tasklet and for the "
                    + ("process-context" if target == "thread" else "BH")
                    + " work that replaces it, interleaved in one boot per run"
                    + (f" of Linux {k}" if k else "") + ".")]
    out += body
    if slow:
        out += ["", para(f"{' and '.join(slow)} do{'es' if len(slow) == 1 else ''} not run "
                         "at the speed of hardware: the ratio within one boot is the figure "
                         "to read, and hardware may give another one.")]
    out += ["", "To reproduce the measurement:", "", f"  {hotpaths.command(bench)}"]
    return out


def fixes_sentence(patches: "list[Patch]", fixes: "list[Patch]", scope: str) -> str:
    """What the cover letter says of the driver fixes at the head of its
    series: which patches, which tree's fixes branch takes them, and that
    the conversions apply on top of them."""
    tree = fixes[0].tree
    where = tree.fixes or f"the fixes branch of {scope or 'the ' + tree.name + ' tree'}"
    nums = [patches.index(p) + 1 for p in fixes]
    conv = [next((n for n, q in enumerate(patches, 1) if n > i and not q.driver_prep
                  and set(q.files) & set(p.files)), 0) for i, p in zip(nums, fixes)]
    if len(fixes) == 1:
        return (f"Patch {nums[0]} ({fixes[0].subject}) fixes a bug in {fixes[0].name}, "
                f"before the driver is converted: it is meant for {where}, and applies on "
                "its own" + (f"; patch {conv[0]}, the conversion of {fixes[0].name}, applies "
                             "on top of it." if conv[0] else "."))
    return (f"Patches {', '.join(map(str, nums[:-1]))} and {nums[-1]} fix bugs in the "
            f"drivers they name, before those are converted: they are meant for {where}, "
            "and each applies on its own; each driver's conversion applies on top of its "
            "fix.")


def stat_line(fds: list[FileDiff]) -> str:
    """The summary line of the series' diffstat: the files its patches
    change (each once), and their insertions and deletions."""
    if not fds:
        return ""
    n, add, rem = len({f.path for f in fds}), sum(f.added for f in fds), sum(f.removed for f in fds)
    return (f" {n} file{'s' if n != 1 else ''} changed"
            + (f", {add} insertion{'s' if add != 1 else ''}(+)" if add else "")
            + (f", {rem} deletion{'s' if rem != 1 else ''}(-)" if rem else ""))


def order_sentence(patches: "list[Patch]", queues: dict[str, str],
                   after: "list[Patch] | None" = None, folder: str = "") -> str:
    """In what order the patches of a series apply: the subsystem's prep
    patch first, the fixes and the drivers' own preparations before their
    conversions, the core removal last; a conversion that applies on top
    of a fix sent to folder in a series of its own (after) does not apply
    on its own."""
    preps = [p for p in patches if p.prep]
    order = ("each patch applies on its own, in any order." if not preps else
             ("the first patch" if patches[0] is preps[0] else
              f"patch {patches.index(preps[0]) + 1}") + " adds "
             + " and ".join(queues.values() or ["the subsystem's workqueues"])
             + f" ({preps[0].subject}), which the driver patches queue on, so they "
             "come after it, in any order.")
    if any(p.core for p in patches):
        order = order[:-1] + ("; the last patch removes the tasklet core, and applies only "
                              "once every other series of this conversion is in.")
    dpreps = [p for p in patches if p.driver_prep and not p.fix]
    fixes = [p for p in patches if p.fix]
    unless = (["a driver's conversion applies on top of its fix, which comes first"]
              if fixes else [])
    if dpreps:
        unless.append("a driver's conversion applies on top of the driver's own "
                      "preparation patch, which comes right before it" if len(dpreps) > 1 else
                      f"patch {patches.index(dpreps[0]) + 2} applies on top of "
                      f"patch {patches.index(dpreps[0]) + 1} "
                      f"({dpreps[0].subject}), which prepares that driver")
    waits = [(n, p) for n, p in enumerate(patches, 1) if not p.driver_prep
             and any(set(p.files) & set(f.files) for f in after or [])]
    if waits:
        unless.append(" and ".join(f"patch {n} ({p.name})" for n, p in waits)
                      + f" {'apply' if len(waits) > 1 else 'applies'} only on top of "
                      f"{'the fixes' if len(after or []) > 1 else 'the fix'} sent to {folder} "
                      "named below")
    tied = {f for p in dpreps + fixes + [p for _, p in waits] for f in p.files}
    alone = [p for p in patches if not (p.prep or p.core or p.driver_prep or p.fix)
             and not tied & set(p.files)]
    if unless and not preps and not alone and not any(p.core for p in patches):
        # no patch stands on its own: "each applies in any order" is not so
        return ", and ".join(unless) + "."
    if unless:
        order = order[:-1] + ", except that " + ", and ".join(unless) + "."
    return order


def opening(patches: "list[Patch]", where: str, queues: dict[str, str], scope: str,
            part: str, after: "list[Patch]", after_folder: str) -> list[str]:
    """The first paragraphs of a cover letter: what the series does and in
    what order its patches apply, where the work runs (TARGET=thread, or a
    reason to stay on BH), its fixes, the series it applies after, and
    what is said of a series sent in parts."""
    total = len(patches)
    order = order_sentence(patches, queues, after, after_folder)
    fixes = [p for p in patches if p.fix]
    moved = [p for p in patches if p.thread]
    thread_wqs = sorted({o for p in moved for o in p.thread.values()})
    lines: list[str] = [
        para("Tasklets are deprecated, and BH workqueues (WQ_BH, since "
             "v6.9) run their work items from the same softirqs, on the CPU "
             "that queued them. This series moves tasklet users of "
             f"{where} to BH workqueues, one patch per driver; " + order)
        if not moved else
        para("Tasklets are deprecated. This series moves tasklet users of "
             f"{where} off them, one patch per driver; " + order),
    ]
    if moved:
        lines += ["", para(
            f"{len(moved)} of the {total} patches move the work out of softirq context, to "
            f"the per-CPU {' and '.join(thread_wqs)}, in process context, as asked for "
            "where deferred work should be preemptible: the scheduler sees it, and it no "
            "longer delays the other softirqs of its CPU. Each of their callbacks keeps the "
            "exclusion against softirqs it had as a tasklet: it runs between "
            "local_bh_disable() and local_bh_enable(), from a work function of its own, "
            "so no lock it shares with softirq code needs changing. The other patches "
            "keep the softirq context, on BH workqueues, and each says why.")]
    kept = sorted({" ".join(p.kept_bh.split()) for p in patches if p.kept_bh})
    if kept:        # TARGET=thread: a subsystem's choice, or a driver's reason, keeps BH
        lines += ["", para("The work of " + (("this patch" if total == 1 else "these patches")
                                             if len(kept) == 1 and not moved
                                             else "the patches that stay on BH workqueues")
                           + " is not moved to a process-context workqueue: "
                           + (kept[0] if len(kept) == 1 else "each patch says why."))]
    if fixes:
        lines += ["", para(fixes_sentence(patches, fixes, scope))]
    if after:
        lines += ["", para(after_sentence(patches, after, after_folder))]
    if part:
        lines += ["", para(part)]
    return lines


def cover(patches: "list[Patch]", rep: dict, fds: dict[str, FileDiff],
          ev: Evidence, who: str, base: str,
          scope: str = "", part: str = "", bench: dict | None = None,
          hot: list[HotPath] | None = None, after: "list[Patch] | None" = None,
          after_folder: str = "", prereqs: list[str] | None = None,
          tree_users: int = 0) -> list[str]:
    """The lines of a cover letter between its Subject and its signature.
    rep: report.json with the files of this series' tree only; scope: the
    tree ("the net-next tree"); part: what to say of a series sent in
    parts; bench: make
    bench's result (bench.json), quoted for the hot paths of hot (the
    table) that the series' files belong to; after: the fixes of the
    series tagged after_folder (net) that some of these conversions apply on top
    of, and prereqs the patch ids of that whole series; tree_users: the
    files of the whole tree that use the API, for a series sent in parts."""
    total = len(patches)
    files = rep.get("files", [])
    mine = {f for p in patches if not p.prep and not p.core for f in p.files}
    core = [fd for p in patches if p.core for fd in p.file_diffs(fds)]
    left = [f for f in files if f.get("status") != Status.CONVERTED]
    every = [fds[f] for p in patches if not p.driver_prep and not p.core for f in p.files]
    keymap = {f["path"]: f["keys"] for f in files if "keys" in f}
    mapped = {f["path"]: f["mapping"] for f in files if "mapping" in f}
    keys = apis(every, keymap)
    queues = {s: o for p in patches for s, o in p.queues.items()}
    sites = [s for f in files if f.get("path") in mine for s in f.get("sites", [])]
    rows = union_rows([patch_rows(
        p.file_diffs(fds), [s for s in sites if s["path"] in p.files], keymap, p.queues,
        {k: r for f in p.files for k, r in mapped.get(f, {}).items()})
        for p in patches if not p.driver_prep and not p.core])
    where = f"Linux {rep.get('kernel', '')}" + (f" for {scope}" if scope else "")
    moved = [p for p in patches if p.thread]
    lines = opening(patches, where, queues, scope, part, after or [], after_folder)
    users = len(files) or len(mine)
    lines += [
        "",
        para(count_sentence(users, len(mine), total - (1 if core else 0), len(left),
                            len(core), tree_users)),
        "",
        "The mapping:", "",
        *[ln for r in rows for ln in _wrap_row(r)],
    ]
    if moved:
        swap = {s_: o for p in moved for s_, o in p.thread.items()}
        lines += ["", para("In the patches that move the work to process context, "
                           + " and ".join(f"{s_} becomes {o}" for s_, o in sorted(swap.items()))
                           + ".")]
    differs = [bullet(_requeue(n, queues)) for n in _notes(
        keys, sites, "".join(ln for f in every for ln in f.lines("+")),
        mask("".join(ln for f in every for ln in f.lines("-"))),
        {k for m in mapped.values() for k in m})]
    if differs:
        lines += ["", "Where the conversion is more than a rename:", "", *differs]
    cross = [(n, p) for n, p in enumerate(patches, 1) if p.shared]
    if cross:
        lines += ["", para("Patches whose files span MAINTAINERS sections or kbuild modules "
                           "(the files share a work item):"), ""]
        lines += [bullet(f"{n}/{total} {p.prefix}: {len(p.files)} files, "
                         + ", ".join(_count(k, w) for k, w in ((len(p.entries), "section"),
                                                               (p.modules, "module")) if k > 1))
                  for n, p in cross]
    lines += [bullet(ln[2:]) if ln.startswith("- ") else para(ln) if ln else ln
              for ln in ev.cover_lines(sorted(mine))]
    lines += latency(bench, hotpaths.touched(sorted(
        f for p in (moved or patches) for f in p.files if f in mine), hot or []),
        "thread" if moved else "bh")
    if left:
        lines += ["", "Left unconverted, and why:", ""]
        for f in sorted(left, key=lambda f: f["path"]):
            lines += [bullet(f"{f['path']}: {f.get('reason') or f.get('status', '')}")]
    lines += [""]
    lines += [f"{who} ({total}):"] + [f"  {p.subject}" for p in patches] + [""]
    lines += [stat_line([fd for p in patches for fd in p.file_diffs(fds)])]
    if base:
        lines += ["", f"base-commit: {base}"]
    return lines + prerequisites(base, prereqs or [])


def union_rows(each: list[list[tuple[str, str]]]) -> list[str]:
    """The mapping block of a cover letter: the rows of its patches' blocks
    (patch_rows()), each once, in the mapping's order; rows of one API
    that differ in what the sites became name every call, once each."""
    by: dict[str, list[str]] = {}
    for rows in each:
        for k, r in rows:
            if r not in by.setdefault(k, []):
                by[k].append(r)
    out = []
    for m in MAPPING:
        texts = by.get(m.key, [])
        lefts: dict[str, list[str]] = {}
        for r in texts:
            left, _, right = r.partition(" -> ")
            alts = lefts.setdefault(left, [])
            alts += [a for a in right.split(" or ") if a not in alts]
        out += [f"{left} -> {' or '.join(alts if len(alts) == 1 else sorted(alts))}"
                if len([r for r in texts if r.partition(' -> ')[0] == left]) > 1
                else next(r for r in texts if r.partition(" -> ")[0] == left)
                for left, alts in lefts.items()]
    return out


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def count_sentence(users: int, converted: int, converting: int, left: int, core: int,
                   tree_users: int = 0) -> str:
    """How many files of the tree use the tasklet API and how many these
    patches convert; converting: the patches that convert them (the core
    removal is not one); tree_users: the files of the whole tree when this
    series is one part of it (0 when it is the whole)."""
    by = ("this patch" if converting == 1 and not core else
          "the first patch" if converting == 1 else
          f"these {converting} patches" if not core else f"the first {converting} patches")
    if tree_users:
        text = (f"The tree has {_count(tree_users, 'file')} that use the tasklet API; "
                f"{_count(converted, 'file')} of them {_be(converted)} converted in {by} "
                "of this part")
    else:
        text = (f"In this tree, {users} {'file uses' if users == 1 else 'files use'} the "
                f"tasklet API: {converted} {_be(converted)} converted in {by}")
    return (text + (f", {left} {_be(left)} left unconverted (below)." if left else ".")
            + (f" The last patch removes the tasklet core itself, in {core} files not "
               "counted among those." if core else ""))


def prerequisites(base: str, ids: list[str]) -> list[str]:
    """The prerequisite-patch-id: lines of a series that applies on top of
    another (as git format-patch --base writes them, after base-commit:)."""
    return ([] if base or not ids else [""]) + [f"prerequisite-patch-id: {i}" for i in ids]


def after_sentence(patches: "list[Patch]", after: "list[Patch]", folder: str) -> str:
    """What a series says of the fixes, sent in a series of their own,
    that some of its conversions apply on top of."""
    conv = [(n, q) for n, q in enumerate(patches, 1)
            if not q.driver_prep and any(set(q.files) & set(f.files) for f in after)]
    said = [f"{q.name} (patch {n})" for n, q in conv]
    what = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]
    fixes = "; ".join(f.subject for f in after)
    return (f"The conversion{'s' if len(conv) > 1 else ''} of {what} appl"
            + ("y" if len(conv) > 1 else "ies") + f" on top of {'fixes' if len(after) > 1 else 'a fix'} "
            f"sent to {folder} in a series of {'their' if len(after) > 1 else 'its'} own ({fixes}): "
            f"this series waits until {folder} is merged here, and its cover letter lists that "
            "series as prerequisite-patch-id: below.")


def fixes_cover(patches: "list[Patch]", fds: dict[str, FileDiff], who: str, base: str,
                scope: str, dependents: list[str]) -> list[str]:
    """The cover letter of a series of drivers' fixes alone (net's, for
    net-next's drivers): what they are, what waits on them."""
    tree = patches[0].tree
    where = tree.fixes or f"the fixes branch of {scope}"
    names = sorted({p.name for p in patches})
    lines = [para(f"{'These patches fix' if len(patches) > 1 else 'This patch fixes'} "
                  f"{'bugs' if len(patches) > 1 else 'a bug'} in "
                  + (", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0])
                  + ", found while converting "
                  f"{'these drivers' if len(names) > 1 else 'the driver'} from tasklets to BH "
                  f"workqueues. {'Each applies' if len(patches) > 1 else 'It applies'} on its "
                  f"own, and is meant for {where}."),
             "",
             para(("The conversions of these drivers" if len(names) > 1 else
                   "The conversion of the driver")
                  + f", sent to {scope} in a series of "
                  + (f"{len(dependents)} parts" if len(dependents) > 1 else "its own")
                  + (", apply" if len(names) > 1 else ", applies")
                  + " on top of " + ("them" if len(patches) > 1 else "it")
                  + f", and {'wait' if len(names) > 1 else 'waits'} until "
                  f"{'these fixes reach' if len(patches) > 1 else 'it reaches'} "
                  f"{scope}."),
             *untagged_sentence(patches),
             "", f"{who} ({len(patches)}):"] + [f"  {p.subject}" for p in patches] + [""]
    lines += [stat_line([fd for p in patches for fd in p.file_diffs(fds)])]
    return lines + (["", f"base-commit: {base}"] if base else [])


def untagged_sentence(fixes: "list[Patch]") -> list[str]:
    """The fixes without a Fixes: tag, said in the cover letter (a fixes
    tree asks for one): ["", the paragraph], or [] when every one has it."""
    nums = [n for n, p in enumerate(fixes, 1) if not p.driver_prep.get("fixes")]
    if not nums:
        return []
    which = (f"Patch {nums[0]} carries" if len(nums) == 1 else "Patches "
             + ", ".join(map(str, nums[:-1])) + f" and {nums[-1]} carry")
    return ["", para(f"{which} no Fixes: tag: the commit that introduced "
                     f"{'the bug' if len(nums) == 1 else 'those bugs'} was not identified.")]
