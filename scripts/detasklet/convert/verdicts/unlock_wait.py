# SPDX-License-Identifier: GPL-2.0-only
"""tasklet_unlock_wait(): flush_work(), when an analysis shows the
difference does not matter.

tasklet_unlock_wait() waits for a running callback only; flush_work()
also waits for a pending run. Two places make that the same:

  disabled-first  a disable of the item before it in the same function
                  dropped the pending run and keeps new ones out, so only
                  a running one is left to wait for;
  teardown-wait   a function proven to take the device, an interface or
                  the module down (analyses.teardown(): its registration,
                  never its name). A scheduled tasklet may run at any
                  softirq, so the pending run flush_work() waits for is one
                  the tasklet could have made at that point too; the wait
                  is bounded (a queue its callback makes again is not
                  waited for), and the caller already sleeps, as
                  tasklet_unlock_wait() does.

Elsewhere (a submission path that parks the tasklet, i915's engine
reset) the longer wait is a decision for the driver.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .analyses import Facts, teardown

if TYPE_CHECKING:
    from .sites import Site


def choose(s: "Site", sites: list["Site"], f: Facts) -> str:
    """Set the replacement of the unlock_wait site s; the reason it is
    refused, "" when one was chosen."""
    prior = [t for t in sites if t.path == s.path and t.function == s.function
             and t.item == s.item and t.line < s.line and t.api.startswith("tasklet_disable")]
    if prior:
        s.replacement, s.verdict, s.analysis = "flush_work", "exact", "disabled-first"
        s.why = (f"the {prior[-1].api}() before it dropped a pending run and keeps new ones "
                 "from being queued, so flush_work() waits only for a running one, as "
                 "tasklet_unlock_wait() did")
        return ""
    reg = teardown(s.function, f)
    if reg:
        s.replacement, s.verdict, s.analysis = "flush_work", "exact", "teardown-wait"
        s.why = (f"{s.function}() is {reg.how}. flush_work() also waits for a pending run, "
                 "which tasklet_unlock_wait() did not; but a scheduled tasklet may run at "
                 "any softirq, so that run here is one the tasklet could have made too, and "
                 "the wait is for one run (a queue its callback makes again is not waited "
                 "for)")
        return ""
    return ("flush_work() also waits for a pending run, which tasklet_unlock_wait() did "
            f"not, and {s.function or 'this code'}() is not proven a teardown path (neither "
            "it nor every caller of it is registered as .remove, .ndo_stop, module_exit() "
            "or a like callback): a decision for the driver")
