# SPDX-License-Identifier: GPL-2.0-only
"""Which files of a kernel tree are C sources, and how they are read.

One list of folders that hold no kernel C worth reading (SKIP_DIRS), one
walk that finds the .c and .h files under given paths and reports, never
drops, what it cannot read or will not follow (a symbolic link out of the
tree), and one way to read a file: bytes as UTF-8, undecodable bytes kept
(surrogateescape), so a file written back is the file read.
"""

from __future__ import annotations

import os
from pathlib import Path

SOURCE_SUFFIXES = (".c", ".h")
# What the tree-wide leftovers check reads: Rust too (a binding that named
# the tasklet API would stop building once the core is removed).
CHECKED_SUFFIXES = (".c", ".h", ".rs")
# Top folders of a kernel tree that never hold kernel code worth reading:
# the host programs (scripts/, usr/), not tools/ nor samples/, whose
# modules (tools/testing/selftests/bpf/test_kmods/, samples/) are built
# against the tree like any driver.
SKIP_DIRS = frozenset({".git", "Documentation", "scripts", "debian", "LICENSES", "usr"})

Problems = list[tuple[str, str]]


def read_text(path: Path) -> str:
    return path.read_bytes().decode("utf-8", errors="surrogateescape")


def _in_tree(kdir: Path, p: Path) -> bool:
    real, top = p.resolve(), kdir.resolve()
    return real == top or top in real.parents


def iter_sources(kdir: Path, paths: list[str], problems: Problems | None = None,
                 suffixes: tuple[str, ...] = SOURCE_SUFFIXES) -> list[str]:
    """Relative paths of the .c/.h files (or those of suffixes) under the
    given parts of the tree (all of it for no paths). What cannot be read (an unreadable folder, a
    symbolic link leading out of the tree or nowhere) goes to problems as
    (path, why); a link to a file of the tree is left to that file."""
    found: set[str] = set()

    def problem(rel: str, why: str) -> None:
        if problems is not None:
            problems.append((rel.replace(os.sep, "/"), why))

    def source(rel: str) -> None:
        p = kdir / rel
        if p.is_symlink():
            if not p.exists():
                problem(rel, "a dangling symbolic link: not scanned")
            elif not _in_tree(kdir, p):
                problem(rel, f"a symbolic link out of the tree (to {p.resolve()}): not "
                             "converted")
            return
        found.add(rel.replace(os.sep, "/"))

    def walk_error(e: OSError) -> None:
        problem(os.path.relpath(e.filename, kdir),
                f"cannot be read ({e.strerror}): its files were not scanned")

    for root in paths or ["."]:
        top = kdir / root
        rel_top = os.path.normpath(os.path.relpath(top, kdir))
        if top.is_file() or top.is_symlink() and not top.is_dir():
            if top.suffix in suffixes:
                source(rel_top)
            continue
        for dirpath, dirnames, filenames in os.walk(top, onerror=walk_error):
            rel_dir = os.path.relpath(dirpath, kdir)
            if rel_dir == ".":
                dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for d in dirnames:
                p = Path(dirpath, d)
                if p.is_symlink() and not (p.exists() and _in_tree(kdir, p)):
                    problem(os.path.normpath(os.path.join(rel_dir, d)),
                            "a symbolic link to a folder out of the tree or nowhere: "
                            "not scanned")
            for name in filenames:
                if name.endswith(suffixes):
                    source(os.path.normpath(os.path.join(rel_dir, name)))
    return sorted(found)
