# SPDX-License-Identifier: GPL-2.0-only
"""The converted tree: KDIR hard-linked into a build folder, all.patch applied.

KDIR is only read. `cp -al` links every file of KDIR into the copy; GNU
patch writes each file it changes anew (a new inode), and that is checked:
a patched file that still shares its inode with KDIR is an error. On a
rerun only the files of the old and the new patch are refreshed, and a
file whose content did not change keeps its mtime, so make rebuilds only
what changed.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
from pathlib import Path

from .. import proc
from ..errors import BuildError

log = logging.getLogger("detasklet")


def patched_files(patch: str) -> list[str]:
    """Paths (relative to the tree) that a -p1 patch changes."""
    return sorted({m.group(1) for m in re.finditer(r"^\+\+\+ b/(\S+)", patch, re.M)})


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def prepare(kdir: Path, patch: Path, src: Path) -> None:
    """src = KDIR with patch applied (see the module's docstring)."""
    stamp = src.parent / (src.name + ".stamp.json")
    data = patch.read_bytes()
    new_files = patched_files(data.decode(errors="replace"))
    old: dict = {}
    if src.is_dir() and stamp.is_file():
        try:
            old = json.loads(stamp.read_text())
        except ValueError:
            old = {}
    if old.get("kdir") != str(kdir):
        old = {}
    if old.get("sha256") == _sha(data):
        return
    before: dict[str, tuple[bytes, float]] = {}
    if not old:
        log.info(f"copying {kdir} to {src} (hard links)")
        shutil.rmtree(src, ignore_errors=True)
        src.parent.mkdir(parents=True, exist_ok=True)
        r = proc.run(["cp", "-al", str(kdir), str(src)])
        if r.rc:
            raise BuildError(f"cannot copy {kdir} to {src}: "
                             f"{r.stderr.strip().splitlines()[-1:]}")
    else:
        touched = sorted(set(old.get("files", [])) | set(new_files))
        log.info(f"{patch.name} changed: refreshing {len(touched)} files in {src}")
        for f in touched:
            p = src / f
            if p.is_file():
                before[f] = (p.read_bytes(), p.stat().st_mtime)
                p.unlink()
            if (kdir / f).is_file():
                shutil.copyfile(kdir / f, p)      # new inode, new mtime
    stamp.unlink(missing_ok=True)
    r = proc.run(["patch", "-p1", "-s", "-N", "--batch", "--no-backup-if-mismatch",
                  "-d", str(src), "-i", str(patch)])
    if r.rc:
        first = (r.stdout + r.stderr).strip().splitlines()[:1]
        raise BuildError(f"{patch.name} does not apply to {kdir}: {' '.join(first)} "
                         f"(make convert again, or remove {src})")
    for f in new_files:
        a, b = (src / f).stat(), (kdir / f).stat() if (kdir / f).exists() else None
        if b is not None and (a.st_ino, a.st_dev) == (b.st_ino, b.st_dev):
            raise BuildError(f"patch wrote {f} in place through a hard link: KDIR was changed")
        if f in before and before[f][0] == (src / f).read_bytes():
            os.utime(src / f, (before[f][1], before[f][1]))
    for f, (content, mtime) in before.items():
        if f not in new_files and (src / f).is_file() and (src / f).read_bytes() == content:
            os.utime(src / f, (mtime, mtime))
    stamp.write_text(json.dumps({"kdir": str(kdir), "sha256": _sha(data),
                                 "files": new_files}) + "\n")
