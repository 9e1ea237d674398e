# SPDX-License-Identifier: GPL-2.0-only
"""The facts of a file's group, for the script rules of cocci/*.cocci.

The only reader of the DETASKLET_* variables that convert/rewrite/protocol.py
writes for each spatch run (the rules that import this module run with
spatch -D facts; alone, as make coccicheck runs them, they do not):

    DETASKLET_HI_KEYS       items hi-scheduled somewhere in the group, by key
                            (the last identifier: rx_tasklet for &p->rx_tasklet)
    DETASKLET_LEGACY        "cb=field,cb2=g.f": legacy callbacks whose data is
                            proven to be the container, with the tasklet's field
    DETASKLET_LEGACY_LOCAL  JSON {cb: {kind, field, expr, wrapper}}: legacy
                            callbacks that keep their body, the old argument a local
    DETASKLET_SYNC_HELPERS  "a,b": functions of the group that reach
                            tasklet_kill/disable/unlock_wait
"""

import json
import os

from detasklet.ctext.tasklet import key
from detasklet.mapping import bh_queue


def _names(var: str) -> set[str]:
    return {n for n in os.environ.get(var, "").split(",") if n}


def item_wq(expr: str) -> str:
    """The one workqueue of a tasklet item: where tasklet_schedule() and
    tasklet_enable() queue it."""
    return bh_queue(key(expr), _names("DETASKLET_HI_KEYS"))


def legacy_field(cb: str) -> str:
    """The tasklet field of legacy callback cb, or "" when the driver did
    not prove one."""
    for pair in os.environ.get("DETASKLET_LEGACY", "").split(","):
        name, _, field = pair.partition("=")
        if name == cb:
            return field
    return ""


def legacy_local(cb: str) -> dict[str, str]:
    """The local-variable form of legacy callback cb: kind, field, expr,
    wrapper; {} when the driver did not prove it."""
    return json.loads(os.environ.get("DETASKLET_LEGACY_LOCAL") or "{}").get(cb, {})


def sync_helpers() -> set[str]:
    """The group's functions that reach a sync tasklet call."""
    return _names("DETASKLET_SYNC_HELPERS")
