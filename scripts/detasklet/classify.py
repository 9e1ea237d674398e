"""All or nothing: decide, per group of files, what reaches the patch.

A file is converted only if spatch ran, changed it, and the rewritten text
names no tasklet API identifier (comments aside). A group converts only if
every one of its files does; otherwise every file of it is reported
unconverted, with its own reason or the name of the file that held it back.
"""

from __future__ import annotations

from dataclasses import dataclass

import re

from .facts import Group
from .rewrite import Result
from .scan import find_uses, strip_comments


@dataclass
class Outcome:
    path: str
    status: str           # converted | unconverted | failed
    reason: str
    tasklets: list[str]
    old: str
    new: str


def leftovers(text: str) -> str:
    uses = find_uses(text)
    if not uses:
        return ""
    shown = ", ".join(f"{u.ident} (line {u.line})" for u in uses[:4])
    more = f" and {len(uses) - 4} more" if len(uses) > 4 else ""
    return f"tasklet API left after the rewrite: {shown}{more}"


def legacy_check(g: Group, new: dict[str, str]) -> dict[str, str]:
    """A legacy callback whose init became INIT_WORK() must have been
    rewritten wherever it is defined or declared, in every file."""
    bad: dict[str, str] = {}
    codes = {f: strip_comments(t) for f, t in new.items()} if g.legacy else {}
    for cb in g.legacy:
        old_sig = re.compile(r"\b" + cb + r"\s*\(\s*unsigned\s+long\b")
        new_def = re.compile(r"\b" + cb + r"\(struct work_struct \*work\)\s*\{")
        inits = [f for f, t in new.items() if re.search(r"\bINIT_WORK\([^;]*\b" + cb + r"\b", t)]
        if not inits:
            continue
        for f, code in codes.items():
            m = old_sig.search(code)
            if m:
                bad[f] = (f"legacy callback {cb}() keeps its unsigned long parameter at line "
                          f"{code.count(chr(10), 0, m.start()) + 1} (its body does not read the "
                          "data once, as the container)")
        if not any(new_def.search(t) for t in new.values()):
            bad.setdefault(inits[0], f"legacy callback {cb}() is not defined in the files "
                           "of this group")
    return bad


def classify_group(g: Group, old: dict[str, str], res: dict[str, Result],
                   tasklets: dict[str, list[str]]) -> list[Outcome]:
    own: dict[str, tuple[str, str]] = {}
    for f in g.files:
        r = res.get(f)
        if f in g.refusals:
            own[f] = ("unconverted", g.refusals[f])
        elif r is None or r.new_text is None:
            own[f] = ("failed", r.error if r else "not rewritten")
        elif r.new_text == old[f]:
            own[f] = ("unconverted", leftovers(old[f]) or "no rule matched")
        else:
            left = leftovers(r.new_text)
            own[f] = ("unconverted", left) if left else ("converted", "")
    for f, why in legacy_check(g, {f: (res[f].new_text or "") for f in g.files if f in res}).items():
        if own[f][0] == "converted":
            own[f] = ("unconverted", why)
    bad = [f for f, (st, _) in own.items() if st != "converted"]
    out = []
    for f in g.files:
        st, why = own[f]
        if st == "converted" and bad:
            st, why = "unconverted", f"shares a tasklet with {bad[0]}, which did not convert"
        new = res[f].new_text if st == "converted" else old[f]
        out.append(Outcome(f, st, why, tasklets.get(f, []), old[f], new or old[f]))
    return out
