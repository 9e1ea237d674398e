# SPDX-License-Identifier: GPL-2.0-only
"""The workqueue API of a tree, as its include/linux/workqueue.h says it:
which flags alloc_workqueue() accepts beside WQ_BH, and which names it
declares.

The flags are read, never assumed from the release: alloc_workqueue()
returns NULL (with a WARN) for a BH workqueue whose flags are not all in
__WQ_BH_ALLOWS. 6.12 defines WQ_PERCPU but allows only WQ_BH | WQ_HIGHPRI
for a BH workqueue; 7.x allows WQ_PERCPU too.
"""

from __future__ import annotations

import re
from pathlib import Path

from .lex import mask
from .sources import read_text

HEADER = "include/linux/workqueue.h"
_BH_ALLOWS_RE = re.compile(r"\b__WQ_BH_ALLOWS\s*=\s*([^,}]+)")


def text_of(kdir: Path) -> str:
    """KDIR's workqueue.h with comments and literals masked ("" if none)."""
    try:
        return mask(read_text(kdir / HEADER))
    except OSError:
        return ""


def bh_allows(code: str) -> frozenset[str]:
    """The flags a BH workqueue may be allocated with (WQ_BH itself
    included), from the __WQ_BH_ALLOWS enumerator of masked workqueue.h
    text; empty when the tree has none (no BH workqueues)."""
    m = _BH_ALLOWS_RE.search(code)
    if not m:
        return frozenset()
    return frozenset(f.strip() for f in m.group(1).split("|") if f.strip())


def declares(code: str, name: str) -> bool:
    """The masked workqueue.h text names `name` in code."""
    return re.search(r"\b" + re.escape(name) + r"\b", code) is not None
