# SPDX-License-Identifier: GPL-2.0-only
"""detasklet leftovers: what is left of the tasklet API in a patched tree,
and in what a build of it compiled.

Tree-wide: every .c/.h/.rs of the tree (tools/ and samples/ included) that
still names the tasklet API outside comments and literals, plus the three
core files (checked with convert.output.tasklet_free.leftovers, which also catches
any tasklet_* identifier), and the Documentation/ files that name the
API's functions. With --tree, also every .c/.h/.rs of the tree that
names an API identifier in a comment or a string (tree_comments).
With a build folder (kbuild O=), the same restricted to what that build
compiled: a .c whose .o exists, a header listed in a .cmd dependency file.
With report.json, the converted files that build compiled. With --tree,
exit status 1 if anything is left tree-wide (make tasklet-free-tree: the
first bar of the conversion, no build). scripts/
tasklet-free.sh runs it on the tasklet-free kernel: exit status 1 if a
compiled file still names the API.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from ..convert.facts.scan import scan_tree
from ..ctext.sources import CHECKED_SUFFIXES, iter_sources, read_text
from ..ctext import comments
from ..ctext.tasklet import CORE_FILES, MAYBE_RE, find_uses
from ..out.files import Status
from ..convert.output import tasklet_free, tasklet_free_text


def tree_leftovers(src: Path) -> dict[str, list[str]]:
    """path -> tasklet identifiers still used there, for the whole tree:
    every .c, .h and .rs file, tools/ and samples/ included."""
    left = {s.path: s.idents for s in scan_tree(src, [])}
    for rel in iter_sources(src, [], suffixes=(".rs",)):
        ids = sorted({u.ident for u in find_uses(read_text(src / rel))})
        if ids:
            left[rel] = ids
    for path in CORE_FILES:
        f = src / path
        if f.is_file():
            ids = tasklet_free.leftovers(read_text(f))
            if ids:
                left[path] = ids
    return dict(sorted(left.items()))


def tree_comments(src: Path) -> dict[str, list[str]]:
    """path -> the API identifiers (ctext.tasklet.API_IDENTIFIERS) that its
    comments and string literals name, for every .c, .h and .rs file of the
    tree: every folder but the hidden ones (scripts/ and Documentation/
    too), the core files included."""
    tops = sorted(p.name for p in src.iterdir() if not p.name.startswith("."))
    left = {}
    for rel in iter_sources(src, tops, suffixes=CHECKED_SUFFIXES):
        raw = (src / rel).read_bytes()
        if MAYBE_RE.search(raw):
            ids = sorted({u.ident for u in comments.named(
                raw.decode("utf-8", errors="surrogateescape"))})
            if ids:
                left[rel] = ids
    return left


_DEP_RE = re.compile(r"[^\s\\:=()$]+\.h\b")


def compiled(src: Path, build: Path) -> set[str]:
    """Source paths (relative to src) that the build in `build` used: .c
    files with an object, headers named in the .cmd dependency files."""
    used: set[str] = set()
    srcs = str(src.resolve()) + os.sep
    for dirpath, _dirs, files in os.walk(build):
        rel_dir = os.path.relpath(dirpath, build)
        for name in files:
            if name.endswith(".o") and not name.startswith("."):
                c = os.path.normpath(os.path.join(rel_dir, name[:-2] + ".c"))
                used.add(c.replace(os.sep, "/"))
            elif name.endswith(".o.cmd"):
                text = Path(dirpath, name).read_text(errors="replace")
                for dep in _DEP_RE.findall(text):
                    if dep.startswith(srcs):
                        used.add(dep[len(srcs):])
                    elif not dep.startswith("/"):
                        used.add(os.path.normpath(dep).replace(os.sep, "/"))
    return used


def main(src: Path, build: Path | None, report: Path | None, list_out: Path | None,
         tree: bool = False) -> int:
    """Print what is left; 1 if a compiled file (build) or, with tree, any
    file of the tree or of Documentation/ still names the API (with tree,
    in a comment or a string too)."""
    left = tree_leftovers(src)
    print(f"tree-wide (.c, .h, .rs, tools/ and samples/ included): {len(left)} files still "
          "name the tasklet API outside comments")
    for f, ids in list(left.items())[:40]:
        print(f"  {f}: {' '.join(ids)}")
    core_left = [f for f in tasklet_free.FILES if f in left]
    print(f"core files with tasklet identifiers: {len(core_left)} {' '.join(core_left)}")
    docs = tasklet_free_text.doc_leftovers(src)
    print(f"Documentation/ files that name the API's functions: {len(docs)}"
          + "".join(f"\n  {f}: {' '.join(n)}" for f, n in docs.items()))
    said = tree_comments(src) if tree else {}
    if tree:
        print(f"tree-wide (.c, .h, .rs, every folder): {len(said)} files name the tasklet API "
              "in a comment or a string" + "".join(f"\n  {f}: {' '.join(n)}"
                                                   for f, n in said.items()))
        print(f"tasklet-free: {'no' if not left and not docs and not said else 'NOT:'} "
              "tree-wide .c/.h/.rs or Documentation/ file names the tasklet API"
              + (f" ({len(left)} source files, {len(said)} in comments or strings, "
                 f"{len(docs)} Documentation/ files do)" if left or docs or said else ""))
    if not build:
        return 1 if tree and (left or docs or said) else 0
    used = compiled(src, build)
    built_left = {f: ids for f, ids in left.items() if f in used}
    print(f"compiled by this build: {len(built_left)} files still name the tasklet API")
    for f, ids in built_left.items():
        print(f"  {f}: {' '.join(ids)}")
    if report:
        rep = json.loads(report.read_text())
        conv = sorted(f["path"] for f in rep["files"] if f["status"] == Status.CONVERTED)
        unconv = sorted(f["path"] for f in rep["files"] if f["status"] != Status.CONVERTED)
        hit = [f for f in conv if f in used]
        print(f"converted files compiled by this build: {len(hit)} of {len(conv)}")
        for f in hit:
            print(f"  {f}")
        blocked = [f for f in unconv if f in used]
        print(f"unconverted files compiled by this build: {len(blocked)}"
              + "".join(f"\n  {f}" for f in blocked))
        if list_out:
            list_out.write_text("".join(f + "\n" for f in hit))
    return 1 if built_left or (tree and (left or docs or said)) else 0
