"""OUT: the one folder detasklet writes, and never anything else.

An OUT the tool made carries a marker file (MARKER) naming the tool and the
kernel it was made for. The tool replaces or changes an existing OUT only
when it carries the marker and holds nothing but entries the tool writes
(ENTRIES); a folder without the marker, a file, /, the working folder, the
home folder, a folder that holds KDIR or this project, and an empty OUT are
refused before any work starts.

A run takes a lock (flock on LOCK beside OUT) for as long as it writes, and
builds a new OUT in a scratch folder of its own (<OUT>.<pid>.incomplete),
which replaces OUT in two renames only when it is complete: a failed or
killed run leaves the previous OUT as it was.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .errors import InputError, OutError

MARKER = ".detasklet"
# What the tool writes into OUT (top-level names); nothing else is ever
# removed or replaced.
ENTRIES = frozenset({MARKER, "all.patch", "report.json", "report.md", "groups.json",
                     "series", ".get_maintainer.json", "tasklet-free.patch", "bench"})
# Room a convert needs in OUT's file system, checked before any work.
MIN_FREE = 64 << 20
PROJECT = Path(__file__).resolve().parents[2]
# write_file()'s temporary names, left by a killed run: ours too.
_TMP_RE = re.compile(r"\.(" + "|".join(re.escape(e) for e in sorted(ENTRIES)) + r")\.\d+\.tmp")


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
    return out


def foreign(out: Path) -> list[str]:
    """The entries of an existing folder the tool may not replace: all of
    them when it has no marker (an empty folder has none)."""
    try:
        names = sorted(os.listdir(out))
    except FileNotFoundError:
        return []
    except OSError as e:
        raise OutError(f"cannot read {out}: {e.strerror}") from None
    if marker(out) is None:
        return names
    return [n for n in names if n not in ENTRIES and not _TMP_RE.fullmatch(n)]


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
        if n not in ENTRIES and not _TMP_RE.fullmatch(n):
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
            raise OutError(f"cannot write {self.out.parent}: {e.strerror}") from None
        return self.dir

    def commit(self) -> None:
        """The old OUT is moved aside before the new one takes its name: a
        kill between the two renames leaves both, marked, never a mix."""
        check_ours(self.out, must_exist=False)      # nothing new appeared in it
        old = self.out.parent / f"{self.out.name}.{os.getpid()}.old"
        if self.out.exists():
            if marker(self.out) is None:            # an empty folder
                self.out.rmdir()
            else:
                os.replace(self.out, old)
        os.replace(self.dir, self.out)
        if old.exists():
            _remove_ours(old)

    def abort(self) -> None:
        if self.dir.is_dir() and marker(self.dir) is not None:
            shutil.rmtree(self.dir, ignore_errors=True)


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


# ---- reading an OUT back (series, send-check, compile-test, coverage) ------

STATUSES = ("converted", "unconverted", "failed")


def _bad(path: Path, what: str) -> InputError:
    return InputError(f"{path} {what}: run make convert again")


def load_report(out: Path) -> dict:
    """OUT/report.json, checked for the shape the tool writes."""
    rj = out / "report.json"
    try:
        data = json.loads(rj.read_text())
    except FileNotFoundError:
        raise InputError(f"{out} has no report.json: run make convert first") from None
    except OSError as e:
        raise InputError(f"cannot read {rj}: {e.strerror}") from None
    except ValueError as e:
        raise _bad(rj, f"is not JSON ({e})") from None
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, list):
        raise _bad(rj, "is not a detasklet report (no list of files)")
    for i, f in enumerate(files):
        if not (isinstance(f, dict) and isinstance(f.get("path"), str)
                and f.get("status") in STATUSES):
            raise _bad(rj, f"is not a detasklet report (file entry {i} has no path "
                           "or a status other than " + "/".join(STATUSES) + ")")
    return data


def load_groups(out: Path) -> list[list[str]]:
    gj = out / "groups.json"
    try:
        data = json.loads(gj.read_text())
    except FileNotFoundError:
        raise InputError(f"{out} has no groups.json: run make convert again") from None
    except OSError as e:
        raise InputError(f"cannot read {gj}: {e.strerror}") from None
    except ValueError as e:
        raise _bad(gj, f"is not JSON ({e})") from None
    groups = data.get("groups") if isinstance(data, dict) else None
    if not (isinstance(groups, list) and all(
            isinstance(g, list) and all(isinstance(p, str) for p in g) for g in groups)):
        raise _bad(gj, "is not a list of groups of paths")
    return groups


def load_patch(out: Path) -> str:
    ap = out / "all.patch"
    try:
        return ap.read_bytes().decode("utf-8", errors="surrogateescape")
    except FileNotFoundError:
        raise InputError(f"{out} has no all.patch: run make convert first") from None
    except OSError as e:
        raise InputError(f"cannot read {ap}: {e.strerror}") from None


def check_consistent(out: Path, report: dict, patched: list[str]) -> None:
    """Every file report.json says converted is in all.patch, and back."""
    conv = {f["path"] for f in report["files"] if f["status"] == "converted"}
    have = set(patched)
    missing, extra = sorted(conv - have), sorted(have - conv)
    if missing:
        raise InputError(f"{out}/all.patch lacks {missing[0]}"
                         + (f" and {len(missing) - 1} more" if len(missing) > 1 else "")
                         + ", converted in report.json: run make convert again")
    if extra:
        raise InputError(f"{out}/all.patch changes {extra[0]}, which report.json does not "
                         "list as converted: run make convert again")
