"""Helpers imported by the Python script rules of cocci/*.cocci.

Facts that cross files come from the driver through the environment:
DETASKLET_HI_KEYS is a comma-separated list of tasklet names (the last
identifier of the expression, e.g. "rx_tasklet" for &p->rx_tasklet) that
the driver hi-schedules somewhere in the file's group; DETASKLET_LEGACY
is "callback=field,..." for the legacy callbacks proven to be used with
one container field (facts.legacy_fields).
"""

import json
import os

from detasklet.facts import key


def item_wq(expr: str) -> str:
    """The one workqueue of a tasklet item: where tasklet_schedule() and
    tasklet_enable() queue it."""
    hi = {k for k in os.environ.get("DETASKLET_HI_KEYS", "").split(",") if k}
    return "system_bh_highpri_wq" if key(expr) in hi else "system_bh_wq"


def legacy_field(cb: str) -> str:
    """The tasklet field of legacy callback cb, from DETASKLET_LEGACY
    ("cb=field,cb2=a.b"), or "" when the driver did not prove one."""
    for pair in os.environ.get("DETASKLET_LEGACY", "").split(","):
        name, _, field = pair.partition("=")
        if name == cb:
            return field
    return ""


def legacy_local(cb: str) -> dict[str, str]:
    """The local-variable form of legacy callback cb, from
    DETASKLET_LEGACY_LOCAL (legacydata.env_value): kind, field, expr;
    {} when the driver did not prove it."""
    return json.loads(os.environ.get("DETASKLET_LEGACY_LOCAL") or "{}").get(cb, {})

