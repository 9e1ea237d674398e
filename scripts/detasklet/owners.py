"""Which driver a file belongs to, and the patches that follow from it.

A driver is the smallest thing that owns a file:
1. a MAINTAINERS section that names the file itself (or a glob in its
   folder): `ATMEL XDMA DRIVER` owns drivers/dma/at_xdmac.c;
2. else the folder of the section that owns it, when no other section
   owns something inside that folder (drivers/net/wireless/ath/ath9k/,
   drivers/staging/rtl8723bs/ for its hal/ and include/);
3. else, in a folder that holds several drivers (drivers/dma/, owned by
   the DMA subsystem, whose drivers have their own sections), the kbuild
   module the file is linked into (`dasd_mod-objs := dasd.o ...`);
   a folder that builds one module is one driver.
Files that share a tasklet (one group) are never split: groups whose
files share a driver are joined, so no driver is in two patches.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from typing import Callable
from pathlib import Path

from .maintainers import Index

_ASSIGN_RE = re.compile(r"^\s*([A-Za-z0-9_.-]+?)-(y|m|objs|\$\([A-Z0-9_]+\))\s*[:+]?=\s*(.*)$")


def kbuild_modules(makefile: str) -> dict[str, str]:
    """object stem -> the module (composite object) it is linked into,
    from one folder's Makefile/Kbuild text; a stem built on its own maps
    to itself."""
    text = re.sub(r"\\\n", " ", makefile)
    parts: dict[str, set[str]] = {}
    targets: set[str] = set()
    for ln in text.splitlines():
        m = _ASSIGN_RE.match(ln.split("#", 1)[0])
        if not m:
            continue
        lhs, objs = m[1], re.findall(r"([\w/-]+)\.o\b", m[3])
        if lhs == "obj":
            targets.update(objs)
        elif lhs not in ("lib", "extra", "always", "hostprogs", "subdir", "ccflags",
                         "asflags", "ldflags", "targets", "clean"):
            parts.setdefault(lhs, set()).update(objs)
    mod: dict[str, str] = {t: t for t in targets}
    for name, objs in sorted(parts.items()):
        for o in objs:
            if o != name and (mod.get(o, o) == o):
                mod[o] = name
    # a composite inside a composite: follow to the outer one
    for o in list(mod):
        seen = {o}
        while mod.get(mod[o], mod[o]) != mod[o] and mod[o] not in seen:
            seen.add(mod[o])
            mod[o] = mod[mod[o]]
    return mod


def building_folder(kdir: Path, path: str, limit: int = 3) -> str:
    """The nearest folder above path's whose kbuild file names its object
    by a relative path (hal/sdio_ops.o), up to limit levels; ''."""
    stem = posixpath.splitext(path)[0]
    d = posixpath.dirname(path)
    for _ in range(limit):
        d = posixpath.dirname(d)
        if not d:
            return ""
        rel = stem[len(d) + 1:]
        if rel in kbuild_modules(read_kbuild(kdir, d)):
            return d
    return ""


def read_kbuild(kdir: Path, folder: str) -> str:
    for n in ("Kbuild", "Makefile"):
        p = kdir / folder / n
        if p.is_file():
            return p.read_text(errors="replace")
    return ""


@dataclass(frozen=True)
class Driver:
    key: str       # what two files of one driver share
    folder: str    # the folder of the driver
    name: str      # its short name: module, or folder name
    kind: str      # entry | folder | module
    module: str = ""   # the kbuild module of the file


def module_name(stem: str) -> str:
    return re.sub(r"[-_]mod$", "", stem)


def driver_of(path: str, index: Index, modules: dict[str, str],
              parent: Callable[[str], str] | None = None,
              kdir_has: Callable[[str], bool] | None = None) -> Driver:
    """The driver of path (tree-relative); modules: kbuild_modules() of
    its folder; parent(path): the nearest folder above whose kbuild file
    names path's object, or ''; kdir_has(folder): it has a kbuild file."""
    folder = posixpath.dirname(path)
    stem = posixpath.splitext(posixpath.basename(path))[0]
    mod = module_name(modules.get(stem, stem))
    own = index.owner(path)
    if own:
        pat, e = own
        if pat and not pat.endswith("/") and pat.count("/") == path.count("/"):
            return Driver("entry:" + e.name, folder, mod, "entry", mod)
        top = pat.rstrip("/")
        if pat.endswith("/") and "*" not in pat and "?" not in pat and \
                (folder + "/").startswith(pat) and not index.has_sub_entries(top):
            return Driver(top, posixpath.dirname(top), posixpath.basename(top), "folder", mod)
    if not modules and path.endswith(".h") and kdir_has is not None:
        # a header in a folder without a kbuild file (include/ of a driver)
        d = posixpath.dirname(folder)
        while d and not kdir_has(d):
            d = posixpath.dirname(d)
        if d:
            return Driver(d, posixpath.dirname(d), posixpath.basename(d), "folder", stem)
    if stem not in modules and parent is not None:
        # built from a Makefile higher up (r8723bs-y += hal/sdio_ops.o):
        # the driver is that folder's
        up = parent(path)
        if up:
            return Driver(up, posixpath.dirname(up), posixpath.basename(up), "folder", mod)
    if len(set(modules.values())) > 1:
        if path.endswith(".c"):
            return Driver(f"{folder}:{mod}", folder, mod, "module", mod)
        # a header of a folder of several drivers: its own key, so that
        # it only joins the group it is in
        return Driver(f"{folder}:{posixpath.basename(path)}", folder, stem, "module", stem)
    return Driver(folder, posixpath.dirname(folder), posixpath.basename(folder), "folder",
                  mod)


def split(units: list[list[str]], drivers: dict[str, Driver]) -> list[list[list[str]]]:
    """Patches as lists of units (a unit: the files of one group), joined
    when they share a driver key; sorted by first file."""
    parent = list(range(len(units)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    by_key: dict[str, int] = {}
    for n, u in enumerate(units):
        for f in u:
            k = drivers[f].key
            if k in by_key:
                parent[find(n)] = find(by_key[k])
            else:
                by_key[k] = n
    comps: dict[int, list[list[str]]] = {}
    for n, u in enumerate(units):
        comps.setdefault(find(n), []).append(sorted(u))
    return sorted((sorted(c) for c in comps.values()), key=lambda c: c[0][0])
