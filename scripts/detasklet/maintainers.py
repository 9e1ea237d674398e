"""MAINTAINERS: which entry owns a file, and who to mail a patch to.

`parse` reads the sections of a MAINTAINERS file; `owner` finds, for a
tree-relative path, the most specific section as scripts/get_maintainer.pl
ranks them (F: patterns, deeper is more specific, X: excludes, N: regexes
at depth 0). `recipients` runs get_maintainer.pl itself on a patch, in
KDIR, and splits its answer into people (To:) and lists (Cc:).
"""

from __future__ import annotations

import bisect
import functools
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Entry:
    name: str
    files: list[str] = field(default_factory=list)     # F: as written
    excludes: list[str] = field(default_factory=list)  # X:
    regexes: list[str] = field(default_factory=list)   # N:
    status: str = ""


def parse(text: str, is_dir=lambda p: False) -> list[Entry]:
    """The sections after the preamble (the first line followed by a
    'X:\\t' line starts them). A directory F: without its trailing slash
    gets one, as get_maintainer does when the folder exists."""
    entries: list[Entry] = []
    cur: Entry | None = None
    lines = text.splitlines()
    for k, ln in enumerate(lines):
        m = re.match(r"^([A-Z]):\s*(.*?)\s*$", ln)
        if m and cur is not None:
            typ, val = m.groups()
            if typ in "FX" and not val.endswith("/") and is_dir(val):
                val += "/"
            {"F": cur.files, "X": cur.excludes, "N": cur.regexes}.get(typ, [])\
                .append(val)
            if typ == "S":
                cur.status = val
        elif ln.strip() and not m and k + 1 < len(lines) and \
                re.match(r"^[A-Z]:\s", lines[k + 1]):
            cur = Entry(ln.strip())
            entries.append(cur)
        elif not ln.strip():
            cur = None
    return entries


@functools.lru_cache(maxsize=None)
def _glob(pat: str) -> re.Pattern[str]:
    return re.compile(re.escape(pat).replace(r"\*", ".*").replace(r"\?", "."))


def match(pat: str, path: str) -> bool:
    """get_maintainer.pl file_match_pattern: a pattern ending in '/' owns
    everything below; otherwise the path must be at the same depth."""
    if not _glob(pat).match(path):
        return False
    return pat.endswith("/") or path.count("/") == pat.count("/")


def depth(pat: str) -> int:
    """get_maintainer's ranking: slashes, +1 for a file pattern."""
    if pat.startswith("*"):
        return -1
    return pat.count("/") + (0 if pat.endswith("/") else 1)


def _top(pat: str) -> str:
    head = pat.split("/", 1)[0]
    return "" if any(c in head for c in "*?[") else head


class Index:
    """The sections of one MAINTAINERS, indexed by the first path
    component of their F: patterns."""

    def __init__(self, entries: list[Entry]) -> None:
        self.entries = entries
        self.by_top: dict[str, set[int]] = {}
        for n, e in enumerate(entries):
            for p in e.files:
                self.by_top.setdefault(_top(p), set()).add(n)
            if e.regexes:
                self.by_top.setdefault("", set()).add(n)
        self.patterns = sorted({p for e in entries for p in e.files})

    def matches(self, path: str) -> list[tuple[int, str, Entry]]:
        """(depth, pattern, entry) of every section that owns path, most
        specific first, then in file order."""
        cand = self.by_top.get(path.split("/", 1)[0], set()) | self.by_top.get("", set())
        out = []
        for n in sorted(cand):
            e = self.entries[n]
            if any(match(x, path) for x in e.excludes):
                continue
            best: tuple[int, str] | None = None
            for p in e.files:
                if match(p, path) and (best is None or depth(p) > best[0]):
                    best = (depth(p), p)
            if best is None and any(re.search(r, path, re.X) for r in e.regexes):
                best = (0, "")
            if best is not None:
                out.append((best[0], best[1], n, e))
        out.sort(key=lambda t: (-t[0], t[2]))
        return [(d, p, e) for d, p, _, e in out]

    def owner(self, path: str) -> tuple[str, Entry] | None:
        """The most specific (pattern, entry) for path, or None."""
        m = self.matches(path)
        return (m[0][1], m[0][2]) if m else None

    def has_sub_entries(self, folder: str) -> bool:
        """Some section names a pattern strictly inside folder/: the
        section owning folder/ is then a subsystem of several drivers."""
        pre = folder.rstrip("/") + "/"
        i = bisect.bisect_right(self.patterns, pre)
        return i < len(self.patterns) and self.patterns[i].startswith(pre)


def split_addresses(lines: list[str]) -> tuple[list[str], list[str]]:
    """get_maintainer --no-rolestats prints people as 'Name <addr>' and
    lists as a bare address: people go to To:, lists to Cc:."""
    to, cc = [], []
    for ln in lines:
        ln = ln.strip()
        if not ln or "@" not in ln:
            continue
        (to if "<" in ln else cc).append(ln)
    return to, cc


def recipients(kdir: Path, patch: str, use_git: bool = False,
               timeout: int = 300) -> tuple[list[str], list[str]]:
    """(To, Cc) for a patch text, from KDIR's get_maintainer.pl run in
    KDIR (it only reads there). The patch goes through a temporary file
    outside KDIR."""
    with tempfile.NamedTemporaryFile("w", suffix=".patch", prefix="detasklet-") as f:
        f.write(patch)
        f.flush()
        cmd = ["perl", "scripts/get_maintainer.pl", "--no-rolestats"]
        cmd += [] if use_git else ["--no-git"]
        # get_maintainer.pl lists people in Perl hash order, which changes
        # from run to run; a fixed seed makes two runs give the same To/Cc.
        env = {**os.environ, "PERL_HASH_SEED": "0", "PERL_PERTURB_KEYS": "0"}
        r = subprocess.run(cmd + [f.name], cwd=kdir, capture_output=True, text=True,
                           timeout=timeout, env=env)
    if r.returncode != 0:
        raise RuntimeError(f"get_maintainer.pl failed: {r.stderr.strip()[:300]}")
    return split_addresses(r.stdout.splitlines())
