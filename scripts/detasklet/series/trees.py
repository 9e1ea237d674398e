# SPDX-License-Identifier: GPL-2.0-only
"""Which maintainer tree takes a patch, and how that tree wants its series.

A patch goes to the tree of the most specific MAINTAINERS section of its
files that names one (T:); a section without T: defers to the sections
above it (NETWORKING DRIVERS above a NIC's own section, NETWORKING
[GENERAL] above net/smc/), whatever lists it names. Of a section's trees
the development one is taken (net-next over net, cryptodev over crypto).
A patch whose sections name no tree goes to the series of its most
specific mailing list (L:), and one without even that to "misc".
trees.toml [section] names the sections whose patches another section's
tree applies (S390 ZFCP DRIVER: the SCSI tree).

trees.toml (beside this file) holds what MAINTAINERS does not say: a
short name for a tree, the tag its subjects carry ([PATCH net-next 1/9]),
the most patches it takes in one series, and why; and the fixes branch a
driver's fix is meant for (net for net-next's drivers), which the cover
letter names, with fixes_tag when that branch takes its fixes in a series
of their own (netdev: a series is for net or for net-next, never both).
"""

from __future__ import annotations

import posixpath
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .maintainers import Index

TABLE = Path(__file__).with_name("trees.toml")
GENERIC = {"linux", "linux-2.6", "kernel", "linux-next"}


@dataclass(frozen=True)
class Tree:
    name: str            # the series' folder and key: net-next, dmaengine
    url: str = ""        # the T: line, or "" for a list or misc
    tag: str = ""        # in the subject: [PATCH <tag> n/N]
    limit: int = 0       # most patches in one series (0: no limit)
    why: str = ""        # why the tag or the limit
    via: str = ""        # how it was found, when not by T:: a list, or none
    fixes: str = ""      # the fixes branch a driver's fix goes to, as its maintainers name it
    # the tag of that branch, when its fixes go in a series of their own
    # ([PATCH net], never inside a net-next series)
    fixes_tag: str = ""


def load_table(path: Path = TABLE) -> dict[str, dict]:
    """trees.toml: {tree name or T: basename: {name, tag, limit, why}}."""
    with path.open("rb") as f:
        return tomllib.load(f).get("tree", {})


def tree_name(t_line: str) -> str:
    """A short name for a T: line: the repository's name without .git
    (net-next), its owner's too when the name says nothing (kees-linux),
    and a branch when one is given (tip-irq-core)."""
    parts = t_line.split()
    url = parts[1] if len(parts) > 1 and parts[0] in ("git", "hg", "quilt") else parts[0]
    branch = parts[2] if len(parts) > 2 and parts[0] == "git" else ""
    url = url.rstrip("/")
    base = re.sub(r"\.git$", "", posixpath.basename(url))
    if base in GENERIC or not base:
        owner = posixpath.basename(posixpath.dirname(url))
        base = f"{owner}-{base}" if base else owner
    if branch:
        base += "-" + re.sub(r"[^A-Za-z0-9.]+", "-", branch)
    return re.sub(r"[^A-Za-z0-9._-]+", "-", base).strip("-") or "misc"


def _development(trees: list[str]) -> str:
    """Of a section's T: lines, the one new work goes to."""
    gits = [t for t in trees if t.split()[0] in ("git", "hg", "quilt")] or trees
    for t in gits:
        n = tree_name(t)
        if n.endswith("-next") or "next" in t.split()[-1] or re.search(r"dev\b|dev-", n):
            return t
    return gits[0]


def load_lists(path: Path = TABLE) -> dict[str, str]:
    """trees.toml [list]: {mailing list: tree name}."""
    with path.open("rb") as f:
        return tomllib.load(f).get("list", {})


# Sections that own files across subsystems but are not where a driver's
# patches go: the whole tree's, and the architectures' and platforms'
# (ARM/APPLE MACHINE SUPPORT lists apple-admac.c; dmaengine applies it).
def _platform(name: str) -> bool:
    return name == "THE REST" or bool(re.match(r"(ARM|ARM64|RISC-V|MIPS)/", name))


def _arch(name: str) -> bool:
    """An architecture's section (LINUX FOR POWERPC ..., PARISC
    ARCHITECTURE): it lists drivers of its machines (ibmvnic, hp_sdc),
    whose subsystem's tree takes them; it decides only for a file no
    subsystem's section gives a tree (drivers/s390/block/)."""
    return "ARCHITECTURE" in name or name.startswith("LINUX FOR ")


def tree_of(files: list[str], index: Index, table: dict[str, dict],
            lists: dict[str, str]) -> Tree:
    """The tree of a patch: of its first file (in order) that has one. For
    each file, its sections from the most specific: the first that names a
    tree (T:) decides, so a section without one defers to the sections
    above it (net/smc/'s lists linux-rdma first, but NETWORKING [GENERAL]
    takes net/). A section that trees.toml [section] sends elsewhere goes
    there. Only where no section of a file names a tree does its most
    specific mailing list of the lists table decide, then any real list.
    An architecture's section names a tree only where no other does."""
    sections = load_sections()
    for arch in (False, True):
        for f in files:
            for _, _, e in index.matches(f):
                if _platform(e.name) or _arch(e.name) != arch:
                    continue
                if e.name in sections:
                    return by_section(sections[e.name], index, table)
                if e.trees:
                    return make_tree(_development(e.trees), table)
    for f in files:
        for _, _, e in index.matches(f):
            known = [a for a in e.lists if a in lists]
            if known and not _platform(e.name):
                return make_tree("", table, lists[known[0]], f"list {known[0]}")
    for f in files:
        for _, _, e in index.matches(f):
            real = [a for a in e.lists if "@" in a and not a.startswith("linux-kernel@")]
            if real:
                return make_tree("", table, real[0].split("@")[0], f"list {real[0]}")
    return make_tree("", table, "misc", "no tree or list in MAINTAINERS")


def load_sections(path: Path = TABLE) -> dict[str, dict]:
    """trees.toml [section]: {MAINTAINERS section: {via, why}}."""
    with path.open("rb") as f:
        return tomllib.load(f).get("section", {})


def by_section(row: dict, index: Index, table: dict[str, dict]) -> Tree:
    """The tree of the section row["via"] names (its T: line), for a
    section whose patches that tree applies (trees.toml [section])."""
    via = next((e for e in index.entries if e.name == row["via"] and e.trees), None)
    if via is None:
        return make_tree("", table, "misc", f"{row['via']} names no tree")
    t = make_tree(_development(via.trees), table)
    return Tree(t.name, t.url, t.tag, t.limit, " ".join(row.get("why", "").split()) or t.why,
                f"section {via.name}", t.fixes, t.fixes_tag)


def make_tree(t_line: str, table: dict[str, dict], name: str = "", via: str = "") -> Tree:
    """The Tree of a T: line (or of a name); a table row's name sends it to
    another tree, whose row then gives the tag and the limit."""
    name = tree_name(t_line) if t_line else name
    row = table.get(name, {})
    why = row.get("why", "")
    if row.get("name") and row["name"] != name:
        name = row["name"]
        row = {**table.get(name, {}),
               **{k: v for k, v in row.items() if k in ("tag", "fixes", "fixes_tag")}}
        why = why or row.get("why", "")
    return Tree(name, t_line, row.get("tag", ""), int(row.get("limit", 0)), why, via,
                " ".join(row.get("fixes", "").split()), row.get("fixes_tag", ""))


def parts(tree: Tree, n: int) -> list[tuple[int, int]]:
    """[start, end) of each part of a series of n patches: one part, or
    near-equal parts of at most tree.limit."""
    if not tree.limit or n <= tree.limit:
        return [(0, n)]
    k = -(-n // tree.limit)
    size = -(-n // k)
    return [(i, min(i + size, n)) for i in range(0, n, size)]
