"""The one-for-one renames where spatch does not reach: inside #define
bodies, and the type name in code spatch could not parse.

spatch parses a macro body only when it looks like an expression or a
statement it knows, and never rewrites one like rt2x00's
RT2X00_TASKLET_INIT(). The renames below are the same mappings as
cocci/30-setup.cocci and cocci/40-calls.cocci, each a call whose arguments
stay as they are, so doing them on the tokens of a macro body is the same
rewrite. tasklet_enable() is not here: its workqueue needs the facts of
each use; a macro with it (or anything else) keeps the API and the file
stays unconverted. tasklet_schedule() goes to the item's one workqueue,
as in cocci/40-calls.cocci: the highpri one when its name is hi-scheduled
in the group (hi_keys).
"""

from __future__ import annotations

import re

from .facts import key
from .scan import _TOKEN_RE, strip_comments

RENAMES = [
    (r"\btasklet_setup\s*\(", "INIT_WORK("),
    (r"\bfrom_tasklet\s*\(", "from_work("),
    (r"\btasklet_hi_schedule\s*\(", "queue_work(system_bh_highpri_wq, "),
    (r"\btasklet_kill\s*\(", "cancel_work_sync("),
    (r"\btasklet_disable_nosync\s*\(", "disable_work("),
    (r"\btasklet_disable\s*\(", "disable_work_sync("),
    (r"\btasklet_unlock_wait\s*\(", "flush_work("),
    (r"\bstruct\s+tasklet_struct\b", "struct work_struct"),
]

_DEFINE_RE = re.compile(r"^[ \t]*#[ \t]*define\b(?:[^\n]*\\\n)*[^\n]*", re.M)


_SCHED_RE = re.compile(r"\btasklet_schedule\s*\(")


def _schedule(body: str, hi_keys: frozenset[str]) -> str:
    """tasklet_schedule(X) -> queue_work(<X's workqueue>, X)."""
    out, last = [], 0
    for m in _SCHED_RE.finditer(body):
        depth, end = 1, m.end()
        while end < len(body) and depth:
            depth += {"(": 1, ")": -1}.get(body[end], 0)
            end += 1
        arg = body[m.end():end - 1]
        wq = "system_bh_highpri_wq" if key(arg) in hi_keys else "system_bh_wq"
        out += [body[last:m.start()], f"queue_work({wq}, "]
        last = m.end()
    out.append(body[last:])
    return "".join(out)


def rewrite_macros(text: str, hi_keys: frozenset[str] = frozenset()) -> str:
    """Apply RENAMES inside every #define whose code (comments aside)
    names one of them; the rest of the file is left to spatch."""
    out, last = [], 0
    for m in _DEFINE_RE.finditer(text):
        body = m.group(0)
        if strip_comments(body) == body:   # no comment or literal inside
            new = _schedule(body, hi_keys)
            for pat, rep in RENAMES:
                new = re.sub(pat, rep, new)
            out.append(text[last:m.start()])
            out.append(new)
            last = m.end()
    out.append(text[last:])
    return "".join(out)


_TYPE_RE = re.compile(r"\bstruct\s+tasklet_struct\b")


def rename_type(text: str) -> str:
    """struct tasklet_struct -> struct work_struct in code, comments and
    literals aside. cocci/90-types.cocci does this wherever spatch parsed
    the code; what is left is in code it skipped (jme.h's struct, whose
    DECLARE_NAPI_STRUCT member spatch cannot parse). A type name has no
    context to get wrong, and whatever else that code holds is still
    tasklet API, which classify.py sees."""
    out, last = [], 0
    for m in _TOKEN_RE.finditer(text):
        out += [_TYPE_RE.sub("struct work_struct", text[last:m.start()]), m.group(0)]
        last = m.end()
    out.append(_TYPE_RE.sub("struct work_struct", text[last:]))
    return "".join(out)


_NEW_CB_RE = re.compile(r"\b(\w+)\(struct work_struct \*work\)\s*\{")


def rename_kerneldoc(old: str, new: str) -> str:
    """A callback whose parameter became 'work' (cocci/20, 30) keeps a
    kernel-doc comment that names the old one ('@t: the tasklet'), which
    scripts/kernel-doc then reports twice. The @name: line of the comment
    right above the definition becomes "@work: the work item" (the old
    words described the tasklet or the data, which are gone)."""
    out = new
    for m in reversed(list(_NEW_CB_RE.finditer(new))):
        fn = m.group(1)
        o = re.search(r"\b" + fn + r"\s*\(\s*(?:struct\s+tasklet_struct\s*\*\s*|unsigned\s+long\s+"
                      r"|void\s*\*\s*)(\w+)\s*\)\s*\{", old)
        if not o or o.group(1) == "work":
            continue
        end = out.rfind("*/", 0, m.start())
        start = out.rfind("/**", 0, end)
        if end < 0 or start < 0 or re.search(r"[;{}]", out[end + 2:m.start()]):
            continue
        # The old words describe the tasklet or the data; say what it is now.
        doc = re.sub(r"(\*\s*@)" + o.group(1) + r"(\s*:)[^\n]*", r"\1work\2 the work item",
                     out[start:end])
        out = out[:start] + doc + out[end:]
    return out
