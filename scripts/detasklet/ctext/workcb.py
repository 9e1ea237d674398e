# SPDX-License-Identifier: GPL-2.0-only
"""The work callbacks a conversion made, read from its patch (all.patch).

A converted callback is a function definition the patch adds with one
`struct work_struct *` parameter ("+static void foo_bh(struct work_struct
*work)"): its tasklet callback rewritten, or a new wrapper the conversion
wrote. make runtime profiles these functions in the guest to show which
converted code ran.
"""

from __future__ import annotations

import re

_FILE_RE = re.compile(r"^\+\+\+ b/(\S+)")
_DEF_RE = re.compile(r"^\+(?:[\w \t\*]*[ \t\*])?(\w+)\s*\(\s*struct\s+work_struct\s*\*\s*\w*\s*\)"
                     r"\s*(\{\s*)?$")


def converted_callbacks(patch: str) -> dict[str, list[str]]:
    """file -> the work callbacks the patch defines in it, in patch order."""
    out: dict[str, list[str]] = {}
    cur = ""
    for line in patch.splitlines():
        m = _FILE_RE.match(line)
        if m:
            cur = m.group(1)
            continue
        m = _DEF_RE.match(line)
        if m and cur and m.group(1) not in out.setdefault(cur, []):
            out[cur].append(m.group(1))
    return {f: fns for f, fns in out.items() if fns}
