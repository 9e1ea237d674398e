# SPDX-License-Identifier: GPL-2.0-only
"""Where OUT may be: the checks made before any work starts.

An OUT the tool made carries a marker file (MARKER) naming the tool and the
kernel it was made for. The tool replaces or changes an existing OUT only
when it carries the marker and holds nothing but entries the tool writes
(ENTRIES); a folder without the marker, a file, /, the working folder, the
home folder, a folder that holds KDIR or this project, and an empty OUT are
refused before any work starts. Paths are compared by name, by device and
inode, and through the mount table, so a bind mount or a symbolic link
hides nothing.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Iterator

from ..errors import InputError, OutError
from ..kdir import kernel_version

MARKER = ".detasklet"
# What the tool writes into OUT (top-level names); nothing else is ever
# removed or replaced.
ENTRIES = frozenset({MARKER, "all.patch", "report.json", "report.md", "groups.json",
                     "series", ".get_maintainer.json", "tasklet-free.patch", "bench",
                     "branches.json", "run.json", "runtime"})
# Room a convert needs in OUT's file system, checked before any work.
MIN_FREE = 64 << 20
PROJECT = Path(__file__).resolve().parents[3]
# write_file()'s temporary names, left by a killed run: ours too.
TMP_RE = re.compile(r"\.(" + "|".join(re.escape(e) for e in sorted(ENTRIES)) + r")\.\d+\.tmp")


def _ident(p: Path) -> tuple[int, int] | None:
    try:
        st = p.stat()
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _existing_ancestors(p: Path) -> Iterator[Path]:
    """p and its parents, from the deepest one that exists up to /."""
    q = p
    while not q.exists() and q != q.parent:
        q = q.parent
    while True:
        yield q
        if q == q.parent:
            return
        q = q.parent


def _unescape(field: str) -> str:
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


def _mounts() -> list[tuple[str, str, str]]:
    """(mount point, root of the mount in its file system, device) of each
    mount, from /proc/self/mountinfo; [] where there is none."""
    try:
        text = Path("/proc/self/mountinfo").read_text()
    except OSError:
        return []
    out = []
    for ln in text.splitlines():
        f = ln.split()
        if len(f) > 4:
            out.append((_unescape(f[4]), _unescape(f[3]), f[2]))
    return out


def _fs_place(p: Path, mounts: list[tuple[str, str, str]]) -> tuple[str, str]:
    """(device, path inside its file system) of p: the same place reached
    through a bind mount gives the same answer."""
    real = Path(os.path.realpath(p))
    best = ("/", "/", "")
    for point, root, dev in mounts:
        if (real == Path(point) or Path(point) in real.parents) and len(point) >= len(best[0]):
            best = (point, root, dev)
    point, root, dev = best
    rest = os.path.relpath(real, point)
    return dev, os.path.normpath(os.path.join(root, "" if rest == "." else rest))


def inside(p: Path, top: Path) -> bool:
    """Whether p is top or lies under it, by path, by device and inode, and
    through the mount table: a bind mount or a symlinked path does not
    hide it."""
    t = _ident(top)
    rp, rt = p.resolve(), top.resolve()
    if rp == rt or rt in rp.parents:
        return True
    if t is not None and any(_ident(a) == t for a in _existing_ancestors(p)):
        return True
    mounts = _mounts()
    if not mounts:
        return False
    dp, fp = _fs_place(p, mounts)
    dt, ft = _fs_place(top, mounts)
    return dp == dt and (fp == ft or fp.startswith(ft.rstrip("/") + "/"))


def marker(out: Path) -> dict | None:
    """The marker of a detasklet OUT, or None when out is not one."""
    m = out / MARKER
    try:
        data = json.loads(m.read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("tool") == "detasklet" else None


def resolve(arg: str, kdir: Path | None, what: str = "OUT") -> Path:
    """The absolute OUT of argument arg, refused when writing it could touch
    what the tool did not write (before any work; nothing is created)."""
    if not arg or not arg.strip():
        raise OutError(f"{what} is empty: name a folder for the results (make convert OUT=out)")
    out = Path(os.path.abspath(os.path.expanduser(arg)))
    real = out.resolve()
    if real == Path(real.anchor):
        raise OutError(f"{what} {arg!r} is the root folder: name a folder of its own")
    for name, top in (("the working folder", Path.cwd()), ("the home folder", Path.home())):
        if _ident(top) is not None and (real == top.resolve() or _ident(out) == _ident(top)):
            raise OutError(f"{what} {arg!r} is {name}: name a folder of its own "
                           "(make convert OUT=out)")
    if kdir is not None:
        if inside(out, kdir):
            raise OutError(f"{what} {out} is inside KDIR {kdir}: the tree is never written")
        if inside(kdir, out):
            raise OutError(f"{what} {out} holds KDIR {kdir}: replacing it would delete the "
                           "tree; name a folder of its own")
    if inside(PROJECT, out):
        raise OutError(f"{what} {out} holds the detasklet project {PROJECT}: name a folder "
                       "of its own")
    if out.is_symlink():
        raise OutError(f"{what} {out} is a symbolic link: name the folder itself")
    if out.exists() and not out.is_dir():
        raise OutError(f"{what} {out} exists and is not a folder: detasklet writes only "
                       "folders it made")
    if out.is_dir() and (os.path.ismount(out) or os.path.realpath(out) in
                         {point for point, _, _ in _mounts()}):     # a bind mount too
        raise OutError(f"{what} {out} is a mount point, which a new {what} cannot replace "
                       f"(it is written beside and renamed): name a folder inside it, "
                       f"such as {out / 'out'}")
    return out


def check_apart(kdir: Path, out: Path, cache: Path | None = None,
                build: Path | None = None) -> None:
    """The folders of a run (the cache, the build folders) apart from KDIR
    and OUT and from each other, checked before any work: the tree is never
    written, a new OUT replaces the old one whole, and a build folder is
    emptied when it held another kernel's build."""
    if cache is not None:
        if inside(cache, kdir):
            raise OutError(f"the cache folder {cache} (CACHE=, --cache) is inside KDIR "
                           f"{kdir}: the tree is never written; put it outside the tree")
        if inside(cache, out):
            raise OutError(f"the cache folder {cache} (CACHE=, --cache) is inside OUT {out}, "
                           "which a run replaces whole: put it outside OUT")
        if cache.exists() and not cache.is_dir():
            raise OutError(f"the cache folder {cache} (CACHE=, --cache) exists and is not a "
                           "folder")
    if build is not None:
        for name, top in (("KDIR", kdir), ("OUT", out)) + (
                (("the cache folder", cache),) if cache is not None else ()):
            if inside(build, top):
                raise OutError(f"the build folder {build} (BUILD=, --build-dir) is inside "
                               f"{name} {top}: put it beside them")
            if inside(top, build):
                raise OutError(f"the build folder {build} (BUILD=, --build-dir) holds {name} "
                               f"{top}, and a build folder may be emptied: name another one")


def foreign(out: Path) -> list[str]:
    """The entries of an existing folder the tool may not replace: all of
    them when it has no marker (an empty folder has none)."""
    try:
        names = sorted(os.listdir(out))
    except FileNotFoundError:
        return []
    except OSError as e:
        raise OutError(f"cannot read {out}: {e.strerror}") from None
    if marker(out) is None and not older(out):
        return names
    return [n for n in names if n not in ENTRIES and not TMP_RE.fullmatch(n)] + \
        series_foreign(out / "series")


PATCH_RE = re.compile(r"(\d{4})-[^/]*\.patch")


def _listed(readme: Path) -> dict[str, int] | None:
    """folder -> its number of patches, from series/README (None: no
    README, or not one the tool wrote)."""
    try:
        lines = readme.read_text().splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    head = [i for i, ln in enumerate(lines) if ln.split()[:2] == ["folder", "patches"]]
    if not head:
        return None
    got = {}
    for ln in lines[head[0] + 1:]:
        f = ln.split()
        if len(f) < 2 or not f[1].isdigit():
            return None
        got[f[0]] = int(f[1])
    return got


def series_foreign(sdir: Path) -> list[str]:
    """What OUT/series/ holds that the tool did not write (as series/...):
    it writes README and, in each folder README lists, the cover letter and
    one NNNN-*.patch per patch of that folder (any folder of such patches
    when a killed run left no README). A replacing run refuses these
    instead of deleting them."""
    if not sdir.exists() and not sdir.is_symlink():
        return []
    if sdir.is_symlink() or not sdir.is_dir():
        return ["series"]
    listed = _listed(sdir / "README")
    alien = []
    for name in sorted(os.listdir(sdir)):
        p = sdir / name
        if name == "README" and p.is_file() and not p.is_symlink():
            continue
        if p.is_symlink() or not p.is_dir() or (listed is not None and name not in listed):
            alien.append(f"series/{name}")
            continue
        seen: set[str] = set()
        for f in sorted(os.listdir(p)):
            m = PATCH_RE.fullmatch(f)
            n = int(m.group(1)) if m else -1
            ok = (m is not None and (p / f).is_file() and not (p / f).is_symlink()
                  and m.group(1) not in seen and (f == "0000-cover-letter.patch" or n > 0)
                  and (listed is None or n <= listed[name]))
            if not ok:
                alien.append(f"series/{name}/{f}")
            elif m:
                seen.add(m.group(1))
    return alien


def older(out: Path) -> bool:
    """out is the OUT of a detasklet older than the marker: no MARKER, a
    report.json of the tool's shape, and nothing but the tool's entries."""
    try:
        names = os.listdir(out)
        data = json.loads((out / "report.json").read_text())
    except (OSError, ValueError):
        return False
    return (MARKER not in names and all(n in ENTRIES for n in names)
            and isinstance(data, dict) and isinstance(data.get("files"), list)
            and all(isinstance(f, dict) and "path" in f and "status" in f
                    for f in data["files"]))


def check_ours(out: Path, must_exist: bool) -> None:
    """out may be replaced or changed by the tool: missing (unless
    must_exist), empty, or a detasklet OUT holding only its own entries."""
    if not out.exists():
        if must_exist:
            raise OutError(f"{out} does not exist: run make convert first")
        return
    alien = foreign(out)
    if alien:
        shown = ", ".join(alien[:3]) + (f" and {len(alien) - 3} more" if len(alien) > 3 else "")
        if marker(out) is None:
            raise OutError(f"{out} exists and was not made by detasklet (no {MARKER}; it "
                           f"holds {shown}): detasklet never replaces what it did not write; "
                           "name a new folder or remove it yourself")
        raise OutError(f"{out} holds {shown}, which detasklet did not write: move them "
                       "away or name another OUT")
    if must_exist and marker(out) is None:
        if older(out):
            raise OutError(f"{out} was made by an older detasklet (it has no {MARKER}): "
                           "run make convert again with this OUT, which replaces it")
        raise OutError(f"{out} was not made by detasklet: run make convert first")


def check_room(out: Path) -> None:
    """Enough free space where OUT goes for what a convert writes."""
    where = next(_existing_ancestors(out))
    try:
        free = shutil.disk_usage(where).free
    except OSError as e:
        raise OutError(f"cannot use {out}: {e.strerror}") from None
    if free < MIN_FREE:
        raise OutError(f"only {free >> 20} MiB free for {out}: detasklet needs "
                       f"{MIN_FREE >> 20} MiB")



def existing(kdir: Path, out_arg: str) -> Path:
    """An OUT that a convert made from this very kernel (its marker names
    the version), for a command that reads it with KDIR: series, send-check
    and compile-test on the other tree would read patches that are not its."""
    out = resolve(out_arg, kdir)
    check_ours(out, must_exist=True)
    made = str((marker(out) or {}).get("kernel", ""))
    have = kernel_version(kdir)
    if made and made != have:
        raise InputError(f"{out} was made from Linux {made}, and KDIR {kdir} is Linux {have}: "
                         "give the tree it was made from, or make convert again")
    return out
