# SPDX-License-Identifier: GPL-2.0-only
"""The one #include resolver, and the graph of who includes what.

"x.h" is looked up beside the includer, then, like <x.h>, in include/.
With search_up, a name not found there is also looked up in the folders
above the includer and their include/ (a driver's own -I$(src) or
-I$(src)/include, as mlx5 and rtl8723bs use): compile-test wants every .c
a header can reach. The grouping of convert resolves without it, as it
always has; search_up would join more files into groups (i915, mlx5 with
hyperv.h, rtl8723bs on the reference trees).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from .. import proc
from .sources import SKIP_DIRS, iter_sources

INCLUDE_RE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.M)


class Resolver:
    """#include names of one tree resolved to tree-relative paths; file
    lookups and each file's includes are read once."""

    def __init__(self, kdir: Path, search_up: bool = False) -> None:
        self.kdir = kdir
        self.search_up = search_up
        self._exists: dict[str, bool] = {}
        self._of: dict[str, list[str]] = {}

    def _isfile(self, rel: str) -> bool:
        if rel not in self._exists:
            self._exists[rel] = (self.kdir / rel).is_file()
        return self._exists[rel]

    def resolve(self, folder: str, name: str, quoted: bool) -> str | None:
        """The tree file that '#include "name"' (quoted) or '<name>' in a
        file of folder names, or None."""
        first = [os.path.normpath(os.path.join(folder, name))] if quoted else []
        for c in first + ["include/" + name]:
            if self._isfile(c):
                return c
        d = folder if self.search_up else ""
        while d:
            d = os.path.dirname(d)
            for c in (os.path.join(d, name), os.path.join(d, "include", name)):
                if not c.startswith(("include/", "arch/")) and self._isfile(c):
                    return c
        return None

    def of(self, rel: str, data: bytes | None = None) -> list[str]:
        """The tree files that rel includes, in order (data: its bytes,
        when already read)."""
        if rel not in self._of:
            if data is None:
                try:
                    data = (self.kdir / rel).read_bytes()
                except OSError:
                    data = b""
            folder = os.path.dirname(rel)
            found = []
            for m in INCLUDE_RE.finditer(data):
                c = self.resolve(folder, m.group(2).decode(errors="replace").strip(),
                                 m.group(1) == b'"')
                if c:
                    found.append(c)
            self._of[rel] = found
        return self._of[rel]


def includers(kdir: Path) -> dict[str, set[str]]:
    """header -> the files of the tree that #include it (search_up)."""
    res = Resolver(kdir, search_up=True)
    rev: dict[str, set[str]] = {}
    for rel in iter_sources(kdir, []):
        try:
            data = (kdir / rel).read_bytes()
        except OSError:
            continue
        if b"include" not in data:
            continue
        for h in res.of(rel, data):
            rev.setdefault(h, set()).add(rel)
    return rev


def includers_of(kdir: Path, headers: set[str], res: Resolver | None = None) -> dict[str, set[str]]:
    """header -> the .c and .h files of the tree that #include it, for
    these headers only: one grep for their file names, then each hit's
    includes resolved as the grouping resolves them (res, without
    search_up). The folders the scan skips (SKIP_DIRS) are left out."""
    out: dict[str, set[str]] = {h: set() for h in headers}
    if not headers:
        return out
    # as an #include names them: <linux/x.h> or "linux/x.h" for include/,
    # "x.h" or "../x.h" for a driver's own header (not <linux/x.h> of
    # another header of that name)
    names = sorted({n for h in headers for n in (
        (h[len("include/"):] + ">", h[len("include/"):] + '"') if h.startswith("include/")
        else (os.path.basename(h) + '"',))})
    r = proc.run(["grep", "-rlF", "--include=*.[ch]", *[a for n in names for a in ("-e", n)],
                  "."], cwd=kdir)
    res = res or Resolver(kdir)
    for ln in r.stdout.splitlines():
        rel = ln.removeprefix("./")
        if rel.split("/")[0] in SKIP_DIRS:
            continue
        for h in res.of(rel):
            if h in out and h != rel:
                out[h].add(rel)
    return out


def named_anywhere(kdir: Path, header: str) -> bool:
    """Whether any file of the tree but header itself names header's file
    name (an #include of it, or any mention: the safe side), by grep over
    the C, assembler, device tree and Kbuild files."""
    name = os.path.basename(header)
    r = proc.run(["grep", "-rlF", "--include=*.[chS]", "--include=*.dts*",
                  "--include=Makefile", "--include=Kbuild", "--include=*.rs", "-e", name,
                  "."], cwd=kdir)
    if r.rc > 1:
        return True                       # cannot tell: as if it were
    return any(ln.removeprefix("./") != header for ln in r.stdout.splitlines())
