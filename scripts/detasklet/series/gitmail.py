# SPDX-License-Identifier: GPL-2.0-only
"""The mails of series/, written by git format-patch from scratch commits.

A temporary repository (never KDIR's) gets, through one git fast-import
stream, a base commit holding the pristine text of every file the series
touch and KDIR's .gitattributes (also the repository's info/attributes,
so hunk headers use diff=cpp as in the kernel's own repository), then for each series one commit per patch on
top of it, each with the patch's message, author and date. git
format-patch writes the mails from those commits: real `index` lines (the
ids of the pristine and changed blobs, the same in every copy of the
tree, so `git am -3` can fall back to a three-way merge), a From line that
is the commit's id, and git's own signature. To:, Cc: and a note under
`---` are added to each mail. The cover letter is not a commit: it has
the series' last commit in its From line, as git format-patch
--cover-letter writes it, and its date is the identity's.

Everything is a function of the inputs and the identity (the commits'
author, committer and dates): git runs without the user's or the
system's configuration.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from .. import proc, scratch
from ..ctext.gitdiff import FileDiff, apply
from ..errors import PatchError
from .identity import Ident

GITATTRIBUTES = ".gitattributes"
_MAIL_START_RE = re.compile(r"^From ([0-9a-f]{40}) Mon Sep 17 00:00:00 2001$", re.M)


@dataclass
class Mail:
    """One patch of a series: its subject (without the [PATCH] tag), the
    message under it (ending in a newline), its diffs, recipients and the
    note that goes under ---."""
    subject: str
    message: str
    diffs: list[FileDiff]
    to: list[str] = field(default_factory=list)
    cc: list[str] = field(default_factory=list)
    note: str = ""
    core: bool = False      # applies on top of every other series


def _env(tmp: Path, ident: Ident) -> dict[str, str]:
    name, _, email = ident.name_email.rpartition(" <")
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp),
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "LC_ALL": "C",
            "TZ": "UTC", "GIT_AUTHOR_NAME": name or ident.name_email,
            "GIT_AUTHOR_EMAIL": email.rstrip(">"), "GIT_COMMITTER_NAME": name or ident.name_email,
            "GIT_COMMITTER_EMAIL": email.rstrip(">")}


def _git(repo: Path, env: dict[str, str], *args: str, stdin: bytes | None = None) -> bytes:
    r = proc.run_bytes(["git", "--git-dir", str(repo), *args], stdin=stdin, env=env)
    if r.rc:
        raise PatchError(f"git {args[0]}: "
                         f"{r.stderr.decode(errors='replace').strip().splitlines()[:1]}")
    return r.stdout


def git_version() -> str:
    """What git format-patch writes as its signature: git's version."""
    return proc.run(["git", "--version"]).stdout.strip().rpartition(" ")[2]


def _blob(data: bytes) -> bytes:
    return b"data %d\n" % len(data) + data + b"\n"


def _person(ident: Ident, date: int) -> bytes:
    return f"{ident.name_email} {date} +0000".encode(errors="surrogateescape")


def _commit(ref: str, mark: int, ident: Ident, date: int, message: str, parent: str,
            changes: dict[str, str | None]) -> bytes:
    """A fast-import commit: changes, path -> new text (None: deleted);
    parent: a mark, or '' for a root commit."""
    out = [b"commit " + ref.encode() + b"\n", b"mark :%d\n" % mark,
           b"author " + _person(ident, date) + b"\n",
           b"committer " + _person(ident, date) + b"\n",
           _blob(message.encode(errors="surrogateescape")),
           b"from " + parent.encode() + b"\n" if parent else b""]
    for path, text in sorted(changes.items()):
        if text is None:
            out.append(b"D " + path.encode(errors="surrogateescape") + b"\n")
        else:
            out.append(b"M 100644 inline " + path.encode(errors="surrogateescape") + b"\n")
            out.append(_blob(text.encode(errors="surrogateescape")))
    return b"".join(out)


def _deleted(fd: FileDiff) -> bool:
    return "\n+++ /dev/null\n" in fd.text.split("@@", 1)[0]


def _after(before: str, fd: FileDiff, fallback: str | None) -> str:
    """before with fd applied; fallback: the text to try when fd was made
    on another (the core removal, after every other series)."""
    try:
        return apply(before, fd)
    except PatchError:
        if fallback is None:
            raise
        return apply(fallback, fd)


def stream(kdir: Path, ident: Ident, old: dict[str, str], series: list[list[Mail]],
           needs: list[int] | None = None) -> tuple[bytes, list[list[int]]]:
    """The fast-import stream of the base and of each series' commits, and
    the marks of each series' commits. A file's text before a patch is the
    text its series' earlier patches made of it (the pristine one first,
    or the text series needs[k] left, for a series that applies on top of
    an earlier one: net-next's on net's fixes); a core patch's, where that
    does not fit, the text every other series made of it."""
    touched = sorted({fd.path for s in series for m in s for fd in m.diffs})
    base: dict[str, str | None] = {}
    for p in touched:
        if p in old:
            base[p] = old[p]
        elif (kdir / p).is_file():      # the core removal's files
            base[p] = (kdir / p).read_bytes().decode(errors="surrogateescape")
    attrs = kdir / GITATTRIBUTES
    if attrs.is_file():
        base[GITATTRIBUTES] = attrs.read_bytes().decode(errors="surrogateescape")
    data = [_commit("refs/heads/base", 1, ident, ident.date, "base\n", "", base)]
    done: dict[str, str] = {}     # every series applied, for a core patch
    marks: list[list[int]] = []
    ends: list[dict[str, str]] = []   # each series' texts after its last patch
    mark = 1
    for k, s in enumerate(series):
        j = needs[k] if needs else -1
        cur = dict(ends[j]) if j >= 0 else {p: t for p, t in base.items() if t is not None}
        parent, ms = (f":{marks[j][-1]}" if j >= 0 else ":1"), []
        for n, m in enumerate(s, 1):
            changes: dict[str, str | None] = {}
            for fd in m.diffs:
                if _deleted(fd):
                    changes[fd.path] = None
                    cur.pop(fd.path, None)
                    continue
                text = _after(cur.get(fd.path, ""), fd, done.get(fd.path) if m.core else None)
                changes[fd.path] = cur[fd.path] = text
            mark += 1
            data.append(_commit(f"refs/heads/s{k}", mark, ident, ident.date + n,
                                f"{m.subject}\n\n{m.message}", parent, changes))
            parent = f":{mark}"
            ms.append(mark)
        if not any(m.core for m in s):
            done.update({p: t for p, t in cur.items() if t != base.get(p)})
        marks.append(ms)
        ends.append(cur)
    return b"".join(data), marks


def _headers(mail: str, to: list[str], cc: list[str]) -> str:
    """mail with To: and Cc: after its (maybe folded) Subject: header."""
    head, sep, body = mail.partition("\n\n")
    lines = head.split("\n")
    i = next(n for n, ln in enumerate(lines) if ln.startswith("Subject: ")) + 1
    while i < len(lines) and lines[i].startswith((" ", "\t")):
        i += 1
    return "\n".join(lines[:i] + fold("To", to) + fold("Cc", cc) + lines[i:]) + sep + body


def fold(name: str, addrs: list[str]) -> list[str]:
    """A To: or Cc: header, one address a line, as git format-patch folds it."""
    if not addrs:
        return []
    return (f"{name}: " + ",\n    ".join(addrs)).split("\n")


def _note(mail: str, note: str) -> str:
    """mail with note right under its --- line, where git am ignores it."""
    if not note:
        return mail
    a, sep, b = mail.partition("\n---\n")
    return a + sep + note.rstrip("\n") + "\n\n" + b


def _patch_ids(repo: Path, env: dict[str, str], commits: list[str]) -> list[str]:
    """git patch-id --stable of each commit, as git format-patch --base
    writes them in prerequisite-patch-id: lines."""
    got = []
    for c in commits:
        diff = _git(repo, env, "diff-tree", "--patch", "--no-renames", f"{c}^", c)
        got.append(_git(repo, env, "patch-id", "--stable", stdin=diff).decode().split()[0])
    return got


def mails(kdir: Path, ident: Ident, old: dict[str, str], series: list[list[Mail]],
          tags: list[str], needs: list[int] | None = None,
          prereqs: list[list[str]] | None = None) -> list[tuple[str, list[str]]]:
    """For each series (tags: its subject tag, "net-next" or ""), the id of
    its last commit and its mails, numbered [PATCH <tag> n/N], made by git
    format-patch in a scratch repository that is gone when this returns.
    needs[k]: the index of the earlier series that series k applies on top
    of (-1: none); its mails are then made from that series' last commit,
    and prereqs[k] gets the git patch-id --stable of each of that series'
    patches, for the cover letter's prerequisite-patch-id: lines."""
    with scratch.folder("git") as tmp:
        repo, env = tmp / "repo.git", _env(tmp, ident)
        r = proc.run(["git", "init", "-q", "--bare", str(repo)], env=env)
        if r.rc:
            raise PatchError(f"git init: {r.first_error()}")
        if (kdir / GITATTRIBUTES).is_file():
            # a bare repository reads no .gitattributes of its trees (git
            # 2.39 has no --attr-source): the same lines, as its own
            (repo / "info").mkdir(exist_ok=True)
            (repo / "info/attributes").write_bytes((kdir / GITATTRIBUTES).read_bytes())
        data, marks = stream(kdir, ident, old, series, needs)
        export = tmp / "marks"
        _git(repo, env, "fast-import", "--quiet", f"--export-marks={export}", stdin=data)
        ids = dict(ln.split() for ln in export.read_text().splitlines())
        out = []
        for k, (s, ms, tag) in enumerate(zip(series, marks, tags)):
            tip = ids[f":{ms[-1]}"]
            j = needs[k] if needs else -1
            start = ids[f":{marks[j][-1]}"] if j >= 0 else ids[":1"]
            if prereqs is not None:
                prereqs.append(_patch_ids(repo, env, [ids[f":{m}"] for m in marks[j]])
                               if j >= 0 else [])
            text = _git(repo, env, "format-patch", "--stdout", "--numbered", "--no-cover-letter",
                        f"--subject-prefix={'PATCH ' + tag if tag else 'PATCH'}",
                        "--no-thread", f"{start}..{tip}").decode(errors="surrogateescape")
            starts = [m.start() for m in _MAIL_START_RE.finditer(text)] + [len(text)]
            got = [text[a:b] for a, b in zip(starts, starts[1:])]
            if len(got) != len(s):
                raise PatchError(f"git format-patch wrote {len(got)} mails for {len(s)} commits")
            out.append((tip, [_note(_headers(g, m.to, m.cc), m.note) for g, m in zip(got, s)]))
        return out
