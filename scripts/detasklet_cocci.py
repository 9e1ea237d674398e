"""Helpers imported by the Python script rules of cocci/*.cocci.

Facts that cross files come from the driver through the environment:
DETASKLET_HI_KEYS is a comma-separated list of tasklet names (the last
identifier of the expression, e.g. "rx_tasklet" for &p->rx_tasklet) that
the driver hi-schedules somewhere in the file's group.
"""

import os
import re



def key(expr: str) -> str:
    """The name that identifies a tasklet expression: its last identifier."""
    names = re.findall(r"[A-Za-z_]\w*", re.sub(r"\[[^\]]*\]", "", expr))
    return names[-1] if names else expr




def enable_wq(expr: str) -> str:
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
