# SPDX-License-Identifier: GPL-2.0-only
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
The name and prefix of a patch come from its driver; which groups make
one patch does not: a patch is the groups (of files that share a
tasklet, never split) whose .c files one kbuild module builds
(module_of), with the headers in those groups. Groups are never joined
through a folder, an include/ folder or a MAINTAINERS section: a header
only travels with the group that declares its work items in it.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from typing import Callable
from pathlib import Path

from ..ctext import kbuild
from ..ctext.includes import Resolver
from ..unionfind import UnionFind
from .maintainers import Index


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
        if rel in kbuild.modules(kbuild.read(kdir, d)):
            return d
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
    """The driver of path (tree-relative); modules: ctext.kbuild.modules() of
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


def module_of(kdir: Path, path: str, mods: dict[str, dict[str, str]]) -> str:
    """'folder:module' of the kbuild module that links path's object in
    (a .c of its folder's kbuild file, or of one up to three folders above
    that names it by a relative path); '' for a header, or a file no
    kbuild file names (a .c included by another). mods: a cache of
    ctext.kbuild.modules() by folder."""
    return kbuild.module_key(kdir, path, mods)


def header_modules(kdir: Path, headers: list[str], sources: list[str],
                   modules: dict[str, str]) -> dict[str, str]:
    """header -> the one kbuild module whose .c files (of sources, or of
    the header's folder or the one above: an unconverted file of the
    driver) include it, directly or through a header of their own folder
    tree; a header
    that several modules or none include is left out. For the groups
    that are a header alone (a member nothing uses any more): it goes
    with its driver's patch."""
    res = Resolver(kdir, search_up=True)
    seen: dict[str, set[str]] = {}
    near = {f"{d}/{c.name}" for h in headers
            for d in {posixpath.dirname(h), posixpath.dirname(posixpath.dirname(h))}
            if d and not d.startswith("include") and (kdir / d).is_dir()
            for c in (kdir / d).iterdir() if c.name.endswith(".c")}
    mods: dict[str, dict[str, str]] = {}
    for c in sorted(set(sources) | near):
        if c not in modules:
            modules = {**modules, c: module_of(kdir, c, mods)}
        if not modules.get(c):
            continue
        reach = set(res.of(c))
        reach |= {h2 for h in list(reach) if not h.startswith("include/") for h2 in res.of(h)}
        for h in headers:
            if h in reach:
                seen.setdefault(h, set()).add(modules[c])
    return {h: ms.pop() for h, ms in seen.items() if len(ms) == 1}


def split(units: list[list[str]], modules: dict[str, str]) -> list[list[list[str]]]:
    """Patches as lists of units (a unit: the files of one group), joined
    when a kbuild module (modules: file -> module_of) builds .c files of
    both; sorted by first file."""
    uf: UnionFind[int] = UnionFind(range(len(units)))
    by_key: dict[str, int] = {}
    for n, u in enumerate(units):
        for f in u:
            k = modules.get(f, "")
            if not k:
                continue
            if k in by_key:
                uf.union(n, by_key[k])
            else:
                by_key[k] = n
    comps = uf.sets(range(len(units)), key=int)
    return sorted((sorted(sorted(units[n]) for n in c) for c in comps), key=lambda c: c[0][0])
