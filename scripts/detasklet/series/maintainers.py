# SPDX-License-Identifier: GPL-2.0-only
"""MAINTAINERS: which entry owns a file, and who to mail a patch to.

`parse` reads the sections of a MAINTAINERS file; `owner` finds, for a
tree-relative path, the most specific section as scripts/get_maintainer.pl
ranks them (F: patterns, deeper is more specific, X: excludes, N: regexes
at depth 0). `recipients` runs get_maintainer.pl itself on a patch, in
KDIR, and splits its answer into people (To:) and lists (Cc:); `address`
does that for every patch of a series, in parallel, with a cache.
"""

from __future__ import annotations

import bisect
import functools
import logging
import os
import re
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .. import cache, proc
from ..errors import ToolError
from ..ctext.gitdiff import FileDiff
from ..convert.output.tasklet_free import TO_SECTIONS

if TYPE_CHECKING:
    from .plan import Patch

log = logging.getLogger("detasklet")


@dataclass
class Entry:
    name: str
    files: list[str] = field(default_factory=list)     # F: as written
    excludes: list[str] = field(default_factory=list)  # X:
    regexes: list[str] = field(default_factory=list)   # N:
    status: str = ""
    trees: list[str] = field(default_factory=list)     # T:
    lists: list[str] = field(default_factory=list)     # L:
    people: list[str] = field(default_factory=list)    # M:


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
            elif typ == "T":
                cur.trees.append(val)
            elif typ == "L":
                cur.lists.append(val.split()[0] if val else val)
            elif typ == "M":
                cur.people.append(val)
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


def _two(pat: str) -> str:
    """'a/b' for a pattern whose first two components are plain, else ''."""
    parts = pat.split("/")
    if len(parts) < 2 or not parts[1] or any(c in parts[0] + parts[1] for c in "*?["):
        return ""
    return parts[0] + "/" + parts[1]


def _top(pat: str) -> str:
    head = pat.split("/", 1)[0]
    return "" if any(c in head for c in "*?[") else head


class Index:
    """The sections of one MAINTAINERS, indexed by the first path
    component of their F: patterns."""

    def __init__(self, entries: list[Entry]) -> None:
        self.entries = entries
        self.by_top: dict[str, set[int]] = {}
        # F: patterns whose two first components are plain (drivers/net/...)
        # only own paths that start with both: indexed by the two, so that
        # a path under drivers/ is not tried against every drivers/ section.
        self.by_two: dict[str, set[int]] = {}
        for n, e in enumerate(entries):
            for p in e.files:
                two = _two(p)
                if two:
                    self.by_two.setdefault(two, set()).add(n)
                else:
                    self.by_top.setdefault(_top(p), set()).add(n)
            if e.regexes:
                self.by_top.setdefault("", set()).add(n)
        self.patterns = sorted({p for e in entries for p in e.files})
        self._seen: dict[str, list[tuple[int, str, Entry]]] = {}

    def matches(self, path: str) -> list[tuple[int, str, Entry]]:
        """(depth, pattern, entry) of every section that owns path, most
        specific first, then in file order."""
        if path not in self._seen:
            self._seen[path] = self._matches(path)
        return list(self._seen[path])

    def _matches(self, path: str) -> list[tuple[int, str, Entry]]:
        cand = (self.by_top.get(path.split("/", 1)[0], set()) | self.by_top.get("", set())
                | self.by_two.get("/".join(path.split("/", 2)[:2]), set()))
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
    to: list[str] = []
    cc: list[str] = []
    for ln in lines:
        ln = ln.strip()
        if not ln or "@" not in ln:
            continue
        (to if "<" in ln else cc).append(ln)
    return to, cc


def section_people(kdir: Path, names: tuple[str, ...]) -> list[str]:
    """The M: and R: people of the MAINTAINERS sections named, in order."""
    try:
        text = (kdir / "MAINTAINERS").read_text(errors="replace")
    except OSError:
        return []
    out: list[str] = []
    cur = ""
    for ln in text.splitlines():
        if ln.strip() and not re.match(r"^[A-Z]:", ln):
            cur = ln.strip()
        elif cur in names and re.match(r"^[MR]:\s*\S", ln) and "<" in ln:
            out.append(ln[2:].strip())
    return out


# As b4 runs get_maintainer.pl (its send-auto-to-cmd and send-auto-cc-cmd):
# MAINTAINERS only, never the authors or signers of the files' git history,
# not even as the fallback for a file no section names.
GET_MAINTAINER = ["perl", "scripts/get_maintainer.pl", "--nogit", "--nogit-fallback",
                  "--nogit-chief-penguins", "--norolestats"]


def recipients(kdir: Path, patch: str, timeout: int = 300) -> tuple[list[str], list[str]]:
    """(To, Cc) for a patch text, from KDIR's get_maintainer.pl run in
    KDIR (it only reads there), as b4 runs it (GET_MAINTAINER). The patch
    goes through a temporary file outside KDIR."""
    with tempfile.NamedTemporaryFile("w", suffix=".patch",
                                     prefix=f"detasklet-{os.getpid()}-") as f:
        f.write(patch)
        f.flush()
        cmd = list(GET_MAINTAINER)
        # get_maintainer.pl lists people in Perl hash order, which changes
        # from run to run; a fixed seed makes two runs give the same To/Cc.
        env = {**os.environ, "PERL_HASH_SEED": "0", "PERL_PERTURB_KEYS": "0"}
        r = proc.run(cmd + [f.name], cwd=kdir, timeout=timeout, env=env)
    if r.timed_out:
        raise ToolError(f"{kdir}/scripts/get_maintainer.pl did not answer in {timeout} s")
    if r.rc != 0:
        raise ToolError(f"{kdir}/scripts/get_maintainer.pl failed (exit {r.rc}): "
                        f"{r.first_error()[:200]}")
    return split_addresses(r.stdout.splitlines())


def read_by_get_maintainer(kdir: Path, git: bool) -> list[str | bytes]:
    """What get_maintainer.pl's answer depends on besides the diff, for the
    cache key: the script, MAINTAINERS, .mailmap, the first
    .get_maintainer.conf and .get_maintainer.ignore of its search path
    (KDIR, $HOME, KDIR/.scripts), and HEAD when it reads git history."""
    def first(name: str) -> tuple[str, bytes]:
        for d in (kdir, Path(os.environ.get("HOME", "")), kdir / ".scripts"):
            try:
                return str(d / name), (d / name).read_bytes()
            except OSError:
                continue
        return "", b""
    got: list[str | bytes] = []
    for f in ("scripts/get_maintainer.pl", "MAINTAINERS", ".mailmap"):
        p = kdir / f
        got += [f, p.read_bytes() if p.is_file() else b""]
    for name in (".get_maintainer.conf", ".get_maintainer.ignore"):
        got += first(name)
    if git:
        got.append(proc.run(["git", "-C", str(kdir), "rev-parse", "-q", "--verify",
                             "HEAD"]).stdout.strip())
    return got


def address(kdir: Path, patches: "list[Patch]", fds: dict[str, FileDiff],
            store: cache.Cache | None, jobs: int) -> None:
    """Fill To/Cc of every patch from get_maintainer.pl, once per patch,
    in parallel; answers are kept in store keyed by the diff, MAINTAINERS
    and get_maintainer.pl, so that a run again is quick."""
    # get_maintainer.pl runs without git (GET_MAINTAINER): HEAD is no input
    salt = cache.digest(*read_by_get_maintainer(kdir, False),
                        Path(__file__).read_bytes())     # how recipients() asks
    if not (kdir / "scripts/get_maintainer.pl").is_file():
        why = "KDIR has no scripts/get_maintainer.pl"
        log.warning(f"{why}: the patches have no To/Cc")
        for p in patches:
            p.to, p.cc, p.no_rcpt = [], [], why
        return
    if not (kdir / "MAINTAINERS").is_file():
        log.warning("KDIR has no MAINTAINERS: get_maintainer.pl finds no maintainers")

    def one(p: "Patch") -> tuple[list[str], list[str], str]:
        diff = "".join(fd.text for fd in p.file_diffs(fds))
        k = cache.digest(salt, diff)
        kept = store.get("get_maintainer", k) if store else None
        if kept is not None:
            return kept["to"], kept["cc"], ""
        to, cc = recipients(kdir, diff)     # a failure is the user's to fix: ToolError
        if store:
            store.put("get_maintainer", k, {"to": to, "cc": cc})
        return to, cc, ""

    with ThreadPoolExecutor(max_workers=max(jobs, 1)) as ex:
        for p, (to, cc, err) in zip(patches, ex.map(one, patches)):
            if p.core:          # the tip and workqueue maintainers (tasklet_free)
                to = to + [a for a in section_people(kdir, TO_SECTIONS) if a not in to]
            p.to, p.cc = to, cc
            if err:
                p.no_rcpt = err
                log.warning(f"{p.subject}: {err}: no To/Cc")
            elif not to and not cc:
                p.no_rcpt = "get_maintainer.pl named nobody for these files"


def add_taker(patches: "list[Patch]", index: Index) -> None:
    """A patch that another section's tree applies (trees.toml [section]:
    zfcp goes through SCSI) is also mailed to that section's maintainers
    (To:) and lists (Cc:), which get_maintainer.pl does not name for its
    files."""
    for p in patches:
        name = p.tree.via.removeprefix("section ")
        e = next((e for e in index.entries if e.name == name), None) \
            if name != p.tree.via else None
        if e is None and not p.to and not p.core:
            e = keeper(p.tree.name, p.files, index)
        if e is not None:
            p.to += [m for m in e.people if m not in p.to]
            p.cc += [a for a in e.lists if "@" in a and a not in p.cc]
            p.no_rcpt = ""


def keeper(tree: str, files: list[str], index: Index) -> Entry | None:
    """For a patch that names no maintainer (an orphaned driver: B43LEGACY
    lists only its lists), the section that keeps its tree: one whose T:
    is that tree and whose F: folder holds every file, though it may
    exclude them with X: (NETWORKING DRIVERS (WIRELESS) for
    drivers/net/wireless/broadcom/b43legacy/); the deepest such folder."""
    from .trees import tree_name     # trees reads this module's Index
    hits = [(len(f), e) for e in index.entries if e.people
            and any(tree_name(t) == tree for t in e.trees)
            for f in e.files if f.endswith("/") and all(x.startswith(f) for x in files)]
    return max(hits, key=lambda h: h[0])[1] if hits else None
