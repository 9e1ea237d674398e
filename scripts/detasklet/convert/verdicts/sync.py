# SPDX-License-Identifier: GPL-2.0-only
"""The verdict of a sync call no decision covers: tasklet_kill(),
tasklet_disable*() and tasklet_unlock_wait() (sites.plan() runs it on
each, after the enables are chosen). choose() sets the site's
replacement, verdict, analysis and why, or returns why it is refused:

    kill          kills.py: disabled-first, teardown, teardown-flush, flush-then-cancel
    unlock_wait   disabled-first or teardown-wait (unlock_wait.py)
    disables      just-set-up, never-enabled, enable-requeues, or the enable decisions
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import unlock_wait
from .analyses import Facts, before_init, for_site
from .kills import disabled_kill, kill, listed
from ...ctext.tasklet import set_up_just_before

if TYPE_CHECKING:
    from .sites import Site


def choose(s: Site, sites: list[Site], f: Facts, enables: dict[str, list[Site]], code: str) -> str:
    """The replacement of sync site s (sites: all the group's; enables:
    each item's enable sites; code: its file's, masked); why it is
    refused, "" when one was chosen."""
    if s.in_macro:
        return ("a call inside a macro: which functions run it is not known, so no "
                "analysis decides it")
    early = before_init(s, f)
    if early:
        return early
    f = for_site(s, f)
    if s.api == "tasklet_kill":
        if disabled_kill(s, code):
            return ""
        return kill(s, f)
    if s.api == "tasklet_unlock_wait":
        return unlock_wait.choose(s, sites, f)
    return disable(s, enables.get(s.item, []), code)


def disable(s: Site, ens: list[Site], code: str = "") -> str:
    """The verdict of a disable, which drops a pending run, from the
    enables of its item (ens, already chosen) and its place in its file's
    masked code; why it is refused, ""."""
    s.replacement = "disable_work" if s.api in ("tasklet_disable_nosync",
                                                "tasklet_disable_in_atomic") \
        else "disable_work_sync"
    if code and set_up_just_before(code, s.line, s.item):
        s.verdict, s.analysis = "exact", "just-set-up"
        s.why = (f"it follows the INIT_WORK() of {s.item} in {s.function}() with no call "
                 "between that could queue it, so it has no pending run to drop")
    elif not ens:
        s.verdict, s.analysis = "exact", "never-enabled"
        s.why = (f"no enable of {s.item} follows in the driver: the pending run it drops "
                 "would never have run as a disabled tasklet either")
    elif all(e.replacement in ("tracked", "enable_and_queue_work") for e in ens):
        s.verdict, s.analysis = "exact", "enable-requeues"
        s.why = ("it drops a pending run, and every enable of "
                 f"{s.item} queues it again (" + ", ".join(sorted(
                     {f"{e.function}(): {e.replacement}" for e in ens})) + ")")
    elif all(e.replacement for e in ens):
        lost = sorted({e.function for e in ens if e.replacement == "enable_work"})
        s.verdict, s.analysis = "decided", "the enable decisions"
        s.why = (f"it drops a pending run, and enable_work() in {listed(lost, s.item)} "
                 "does not queue it again; why losing that run is safe is said with "
                 + ("those enable_work() calls" if len(lost) > 1 else "that enable_work()"))
    else:
        return (f"the pending run it drops is not queued again by an enable of "
                f"{s.item} that could be written")
    return ""
