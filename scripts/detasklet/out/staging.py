# SPDX-License-Identifier: GPL-2.0-only
"""Writing OUT: a lock, a scratch folder swapped in whole, files by rename.

A run takes a lock (flock on a file beside OUT) for as long as it writes,
and builds a new OUT in a scratch folder of its own
(<OUT>.<pid>.incomplete), which replaces OUT in two renames only when it
is complete: a failed or killed run leaves the previous OUT as it was.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from ..errors import OutError
from .place import ENTRIES, MARKER, TMP_RE, check_ours, foreign, marker, older

def lock_path(out: Path) -> Path:
    return out.parent / f".{out.name}.lock"


@contextmanager
def locked(out: Path, shared: bool = False) -> Iterator[None]:
    """Hold OUT's lock (flock on a file beside it) for the block; a second
    run on the same OUT is refused with one line instead of mixing two."""
    lp = lock_path(out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(lp, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        raise OutError(f"cannot write beside {out} ({lp}): {e.strerror}") from None
    try:
        try:
            fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except BlockingIOError:
            raise OutError(f"another detasklet run is using {out} (lock {lp}): wait for it "
                           "to end, or name another OUT") from None
        yield
    finally:
        os.close(fd)


def write_marker(d: Path, kernel: str, version: str) -> None:
    (d / MARKER).write_text(json.dumps({"tool": "detasklet", "version": version,
                                        "kernel": kernel}, indent=1) + "\n")


def _remove_ours(d: Path) -> None:
    """Remove a folder the tool wrote: its own entries, then the folder if
    nothing else is left in it."""
    try:
        names = os.listdir(d)
    except OSError:
        return
    for n in names:
        if n not in ENTRIES and not TMP_RE.fullmatch(n):
            continue
        p = d / n
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p, ignore_errors=True)
        elif p.exists() or p.is_symlink():
            p.unlink(missing_ok=True)
    try:
        d.rmdir()
    except OSError:
        pass


def _stale_scratch(out: Path) -> None:
    """Scratch folders of runs that were killed (we hold the lock, so no
    other run is using them): only those that carry the marker."""
    for p in out.parent.glob(f"{out.name}.*.incomplete"):
        if p.is_dir() and not p.is_symlink() and marker(p) is not None:
            _remove_ours(p)
    for p in out.parent.glob(f"{out.name}.*.old"):
        if p.is_dir() and not p.is_symlink() and marker(p) is not None and not foreign(p):
            _remove_ours(p)


class Staging:
    """A new OUT being written: begin() (under the lock) makes the scratch
    folder and checks that OUT can be replaced; commit() swaps it in;
    abort() removes it. Only the scratch folder is written until commit."""

    def __init__(self, out: Path, kernel: str, version: str) -> None:
        self.out = out
        self.kernel = kernel
        self.version = version
        self.dir = out.parent / f"{out.name}.{os.getpid()}.incomplete"

    def begin(self) -> Path:
        check_ours(self.out, must_exist=False)
        if self.out.exists() and not os.access(self.out, os.W_OK | os.X_OK):
            raise OutError(f"{self.out} is not writable: the previous results could not "
                           "be replaced")
        _stale_scratch(self.out)
        try:
            self.dir.mkdir()
            write_marker(self.dir, self.kernel, self.version)
        except OSError as e:
            shutil.rmtree(self.dir, ignore_errors=True)
            raise OutError(f"cannot write {self.out.parent}: {e.strerror}; {self.out} is "
                           "left as it was") from None
        return self.dir

    def carry(self, name: str) -> None:
        """Copy OUT's entry name (one of ENTRIES, a real folder or file) into
        the scratch folder: what another command wrote there, such as make
        bench's bench/ or make branches' record, outlives a convert that
        replaces OUT."""
        assert name in ENTRIES
        src = self.out / name
        if marker(self.out) is None or src.is_symlink() or not src.exists():
            return
        try:
            if src.is_dir():
                shutil.copytree(src, self.dir / name, symlinks=True)
            else:
                shutil.copy2(src, self.dir / name)
        except OSError as e:
            raise OutError(f"cannot copy {src} into the new OUT ({e.strerror}); {self.out} "
                           "is left as it was") from None
        except shutil.Error as e:
            first = e.args[0][0] if e.args and e.args[0] else ("", "", str(e))
            raise OutError(f"cannot copy {src} into the new OUT ({first[-1]}); {self.out} "
                           "is left as it was") from None

    def commit(self) -> None:
        """The old OUT is moved aside before the new one takes its name: a
        kill between the two renames leaves both, marked, never a mix."""
        try:
            check_ours(self.out, must_exist=False)      # nothing new appeared in it
        except OutError:
            self.abort()
            raise
        old = self.out.parent / f"{self.out.name}.{os.getpid()}.old"
        try:
            if self.out.exists():
                if marker(self.out) is None and not older(self.out):    # an empty folder
                    self.out.rmdir()
                else:
                    os.replace(self.out, old)
            os.replace(self.dir, self.out)
        except OSError as e:
            if old.exists() and not self.out.exists():
                os.replace(old, self.out)           # the previous OUT back in its place
            self.abort()
            raise OutError(f"cannot replace {self.out} ({e.strerror}): it is left as it "
                           "was") from None
        if old.exists():
            _remove_ours(old)

    def abort(self) -> None:
        if self.dir.is_dir() and marker(self.dir) is not None:
            shutil.rmtree(self.dir, ignore_errors=True)


@contextmanager
def changed(out: Path) -> Iterator[Path]:
    """Change an existing OUT as a whole (make series, compile-test's
    records): a copy of its entries in a scratch folder is the block's to
    change; it replaces OUT in two renames when the block ends, and is
    removed, OUT left as it was, when it fails or is interrupted. Call
    under locked(out)."""
    made = marker(out) or {}
    stage = Staging(out, str(made.get("kernel", "")), str(made.get("version", "")))
    tmp = stage.begin()
    try:
        shutil.copy2(out / MARKER, tmp / MARKER)
        for name in sorted(os.listdir(out)):
            if name in ENTRIES and name != MARKER:
                stage.carry(name)
        yield tmp
    except OSError as e:
        stage.abort()
        raise OutError(f"cannot write the results ({e.strerror}"
                       f"{': ' + str(e.filename) if e.filename else ''}); {out} is left as "
                       "it was") from None
    except BaseException:
        stage.abort()
        raise
    stage.commit()


def write_file(out: Path, name: str, text: str) -> Path:
    """Put one file into a detasklet OUT (made with its marker if missing),
    by rename: readers never see half of it."""
    assert name in ENTRIES
    dst = out / name
    tmp = out / f".{name}.{os.getpid()}.tmp"
    try:
        tmp.write_text(text, encoding="utf-8", errors="surrogateescape")
        os.replace(tmp, dst)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise OutError(f"cannot write {dst}: {e.strerror}") from None
    return dst


