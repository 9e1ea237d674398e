"""Helpers imported by the Python script rules of cocci/*.cocci.

Facts that cross files come from the driver through the environment:
DETASKLET_HI_KEYS is a comma-separated list of tasklet names (the last
identifier of the expression, e.g. "rx_tasklet" for &p->rx_tasklet) that
the driver hi-schedules somewhere in the file's group.
"""

import os
import re

_fields: dict[str, set[str]] = {}


def key(expr: str) -> str:
    """The name that identifies a tasklet expression: its last identifier."""
    names = re.findall(r"[A-Za-z_]\w*", re.sub(r"\[[^\]]*\]", "", expr))
    return names[-1] if names else expr


def record(cb: str, field: str) -> None:
    _fields.setdefault(cb, set()).add(field)


def one_field(cb: str, field: str) -> bool:
    """True when every legacy init of cb names the same tasklet field."""
    return _fields.get(cb, {field}) == {field}


def enable_wq(expr: str) -> str:
    hi = {k for k in os.environ.get("DETASKLET_HI_KEYS", "").split(",") if k}
    return "system_bh_highpri_wq" if key(expr) in hi else "system_bh_wq"
