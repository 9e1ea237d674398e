"""The one-for-one renames, inside #define bodies, where spatch never looks.

spatch parses a macro body only when it looks like an expression or a
statement it knows, and never rewrites one like rt2x00's
RT2X00_TASKLET_INIT(). The renames below are the same mappings as
cocci/30-setup.cocci and cocci/40-calls.cocci, each a call whose arguments
stay as they are, so doing them on the tokens of a macro body is the same
rewrite. tasklet_enable() is not here: its workqueue needs the facts of
each use; a macro with it (or anything else) keeps the API and the file
stays unconverted.
"""

from __future__ import annotations

import re

from .scan import strip_comments

RENAMES = [
    (r"\btasklet_setup\s*\(", "INIT_WORK("),
    (r"\bfrom_tasklet\s*\(", "from_work("),
    (r"\btasklet_schedule\s*\(", "queue_work(system_bh_wq, "),
    (r"\btasklet_hi_schedule\s*\(", "queue_work(system_bh_highpri_wq, "),
    (r"\btasklet_kill\s*\(", "cancel_work_sync("),
    (r"\btasklet_disable_nosync\s*\(", "disable_work("),
    (r"\btasklet_disable\s*\(", "disable_work_sync("),
    (r"\btasklet_unlock_wait\s*\(", "flush_work("),
    (r"\bstruct\s+tasklet_struct\b", "struct work_struct"),
]

_DEFINE_RE = re.compile(r"^[ \t]*#[ \t]*define\b(?:[^\n]*\\\n)*[^\n]*", re.M)


def rewrite_macros(text: str) -> str:
    """Apply RENAMES inside every #define whose code (comments aside)
    names one of them; the rest of the file is left to spatch."""
    out, last = [], 0
    for m in _DEFINE_RE.finditer(text):
        body = m.group(0)
        if strip_comments(body) == body:   # no comment or literal inside
            new = body
            for pat, rep in RENAMES:
                new = re.sub(pat, rep, new)
            out.append(text[last:m.start()])
            out.append(new)
            last = m.end()
    out.append(text[last:])
    return "".join(out)
