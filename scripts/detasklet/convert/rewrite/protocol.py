# SPDX-License-Identifier: GPL-2.0-only
"""The facts a group gives the semantic patches: the DETASKLET_* variables.

spatch sees one file at a time; what crosses files (which items are
hi-scheduled somewhere in the group, which legacy callbacks are proven,
which functions reach a sync call) comes from the driver through the
environment of each spatch run. This module is the only writer; the only
reader is scripts/detasklet_cocci.py, which the script rules import.
The rules that need them run with spatch -D facts (docs/design.md).

    DETASKLET_HI_KEYS       items hi-scheduled in the group, by key (a,b)
    DETASKLET_LEGACY        legacy callbacks and their container field (cb=f,cb2=g.f)
    DETASKLET_LEGACY_LOCAL  callbacks that keep their body, as JSON:
                            {cb: {kind, field, expr, wrapper}}
    DETASKLET_SYNC_HELPERS  functions of the group that reach a sync call (a,b)

What each enable, kill, chosen schedule and disable_in_atomic decided to be
disable_work_sync() becomes does not go through the environment: the driver
renames those calls to markers in the text spatch reads (convert.verdicts.sites,
cocci/40-calls.cocci).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..facts.groups import Group


def env(g: "Group") -> dict[str, str]:
    """The DETASKLET_* variables of a group's spatch runs."""
    return {
        "DETASKLET_HI_KEYS": ",".join(sorted(g.hi_keys)),
        "DETASKLET_LEGACY": ",".join(f"{c}={f}" for c, f in sorted(g.legacy.items())),
        "DETASKLET_LEGACY_LOCAL": json.dumps(
            {cb: {"kind": c.kind, "field": c.field, "expr": c.expr(), "wrapper": c.wrapper}
             for cb, c in sorted(g.legacy_local.items())}, sort_keys=True),
        "DETASKLET_SYNC_HELPERS": ",".join(sorted(g.sync_helpers)),
    }
