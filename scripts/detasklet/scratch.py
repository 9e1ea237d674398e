# SPDX-License-Identifier: GPL-2.0-only
"""The scratch folders of a run: folder() makes a temporary folder named
after the run's PID (detasklet-<pid>-*), removed at the end of its block
or by the signal that ends the run (proc.cleanup()); clean_stale() removes
those of runs that no longer exist, so that a kill -9 leaves nothing for
good."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .proc import cleanup

_SCRATCH_RE = re.compile(r"detasklet-(\d+)-")


@contextmanager
def folder(kind: str = "") -> Iterator[Path]:
    """A temporary folder of this run (detasklet-<pid>-<kind>-*), removed
    at the end of the block."""
    prefix = f"detasklet-{os.getpid()}-{kind + '-' if kind else ''}"
    with tempfile.TemporaryDirectory(prefix=prefix, ignore_cleanup_errors=True) as d:
        with cleanup(lambda: shutil.rmtree(d, ignore_errors=True)):
            yield Path(d)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _dead(pid: int) -> bool:
    return pid != os.getpid() and not alive(pid)


def _remove(p: Path) -> None:
    if p.is_dir() and not p.is_symlink():
        shutil.rmtree(p, ignore_errors=True)
    else:
        p.unlink(missing_ok=True)


def clean_stale(tmpdir: Path | None = None) -> int:
    """Remove the scratch folders and files of detasklet runs that have
    ended (their PID is gone) from TMPDIR; the number removed."""
    root = Path(tmpdir or tempfile.gettempdir())
    n = 0
    try:
        names = os.listdir(root)
    except OSError:
        return 0
    for name in names:
        m = _SCRATCH_RE.match(name)
        if m and _dead(int(m.group(1))):
            _remove(root / name)
            n += 1
    return n
