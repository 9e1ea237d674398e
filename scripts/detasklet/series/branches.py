# SPDX-License-Identifier: GPL-2.0-only
"""make branches: one git branch per series of OUT/series/, in KDIR's own
repository, through git plumbing only.

Each branch starts at the series' base commit (report.json "series"
"base", the base-commit: of its cover letter) and holds what b4 prep
keeps: an empty commit with the cover letter and b4's tracking data
(b4's "commit" cover strategy, so that b4 prep -p and b4 send read the
branch as their own), then one commit per patch, made with git mailinfo,
git apply --cached on a private index, write-tree and commit-tree. A
tree sent in parts gets one branch per part, each on top of the one
before; a series that applies on top of the fixes series of its drivers
(report.json "series" "needs": net-next's on net's) starts at that
branch. The work tree, the index and HEAD of KDIR are never touched; the
only writes are refs/heads/<prefix><folder> and the objects they need.

A branch is only ever created where no ref of that name exists, or moved
from the commit this command recorded for it (OUT/branches.json), in one
git update-ref transaction: a branch of the user's with the same name,
or one moved since, stops the run before any ref is written; so does a
branch it would move or delete that a worktree of the repository has
checked out. The record names the OUT and the PREFIX each branch was made
under: a copy of OUT owns nothing, and only the branches made under the
current PREFIX for a series that no longer exists are deleted, on the
same terms.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from .. import proc, scratch
from ..errors import InputError, PatchError
from ..kdir import kernel_version
from ..out import files as outfiles, place
from ..out.staging import locked, write_file

log = logging.getLogger("detasklet")

RECORD = "branches.json"
ZERO = "0" * 40
# b4 prep's marker for the cover letter commit (b4/ez.py MAGIC_MARKER).
B4_MARKER = "--- b4-submit-tracking ---"


@dataclass
class Made:
    ref: str
    commit: str
    patches: int


def git(kdir: Path, *args: str, env: dict[str, str] | None = None,
        stdin: str | None = None) -> str:
    """git -C kdir ARGS; its stdout, or a PatchError with git's first line."""
    r = proc.run(["git", "-C", str(kdir), *args], stdin=stdin,
                 env={**os.environ, **(env or {})}, errors="surrogateescape")
    if r.rc:
        first = (r.stderr.strip() or r.stdout.strip() or f"exit {r.rc}").splitlines()[0]
        raise PatchError(f"git {args[0]}: {first}")
    return r.stdout


def repository(kdir: Path) -> None:
    """KDIR must be the top of a git work tree (not a folder inside one)."""
    r = proc.run(["git", "-C", str(kdir), "rev-parse", "--show-toplevel"])
    if r.rc or Path(r.stdout.strip()).resolve() != kdir.resolve():
        raise InputError(f"{kdir} is not a git checkout: make branches writes branches into "
                         "KDIR's repository (OUT/series/ holds the same patches as mails)")


def folders(out: Path) -> list[str]:
    """The series folders in the order of series/README (the order to send them)."""
    readme = out / "series" / "README"
    if not readme.is_file():
        raise InputError(f"{out}/series/README is missing: run make convert (or make series) "
                         "first")
    lines = readme.read_text().splitlines()
    try:
        start = next(i for i, ln in enumerate(lines) if ln.split()[:2] == ["folder", "patches"])
    except StopIteration:
        raise InputError(f"{readme} is damaged: run make series again") from None
    names = [ln.split()[0] for ln in lines[start + 1:] if ln.strip()]
    for n in names:
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", n) or not (out / "series" / n).is_dir():
            raise InputError(f"{readme} names {n!r}, which is not a series folder: run make "
                             "series again")
    return names


def previous_part(name: str, names: list[str]) -> str:
    """net-2 -> net-1 when both are series folders; else ''."""
    m = re.fullmatch(r"(.+)-(\d+)", name)
    if m and int(m.group(2)) > 1 and f"{m.group(1)}-{int(m.group(2)) - 1}" in names:
        return f"{m.group(1)}-{int(m.group(2)) - 1}"
    return ""


def split_mail(text: str) -> tuple[dict[str, str], str]:
    """(headers, body) of one mail of series/ (unfolded headers)."""
    head, _, body = text.partition("\n\n")
    fields: dict[str, str] = {}
    key = ""
    for ln in head.splitlines()[1:]:          # the first line is "From <sha1> ..."
        if ln[:1] in (" ", "\t") and key:
            fields[key] += " " + ln.strip()
        elif ":" in ln:
            key, _, v = ln.partition(":")
            key = key.lower()
            fields[key] = v.strip()
    return fields, body


def subject_of(subject: str) -> tuple[str, list[str]]:
    """'[PATCH net-next 01/15] x: y' -> ('x: y', ['net-next'])."""
    m = re.match(r"\[PATCH((?: [^\]/ ]+)*?)(?: \d+/\d+)?\]\s*(.*)", subject)
    if not m:
        return subject, []
    return m.group(2), m.group(1).split()


def cover_message(text: str, who: str, change_id: str, prefixes: list[str]) -> str:
    """The cover commit's message: the cover letter's subject and text
    (without the shortlog, diffstat and base-commit: b4 adds its own),
    To:/Cc: as b4 prep keeps them, then b4's tracking data."""
    fields, body = split_mail(text)
    title, _ = subject_of(fields.get("subject", ""))
    body = body.split("\n-- \n")[0]
    lines = body.splitlines()
    cut = next((i for i, ln in enumerate(lines) if re.fullmatch(re.escape(who) + r" \(\d+\):", ln)),
               len(lines))
    text_ = "\n".join(lines[:cut]).strip()
    addrs = [f"{k.capitalize()}: {a.strip()}" for k in ("to", "cc")
             for a in fields.get(k, "").split(",") if a.strip()]
    tracking = {"series": {"revision": 1, "change-id": change_id, "base-branch": None,
                           "prefixes": prefixes}}
    return (f"{title}\n\n{text_}\n\n" + ("\n".join(addrs) + "\n\n" if addrs else "")
            + f"{B4_MARKER}\n# This section is used internally by b4 prep for tracking "
            "purposes.\n" + json.dumps(tracking, indent=2) + "\n")


def person(name_email: str) -> tuple[str, str]:
    m = re.fullmatch(r"(.*?)\s*<([^>]*)>", name_email.strip())
    return (m.group(1), m.group(2)) if m else (name_email.strip(), "")


def commit_env(author: str, author_date: str, committed: int) -> dict[str, str]:
    name, email = person(author)
    return {"GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_AUTHOR_DATE": author_date,
            "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": email,
            "GIT_COMMITTER_DATE": f"{committed} +0000"}


def commit_patch(kdir: Path, parent: str, mail: Path, index: Path, scratch: Path,
                 committed: int) -> str:
    """One mail of series/ applied on parent, as a commit; its id. The
    private index holds parent's tree (read once per series)."""
    msg, patch = scratch / "msg", scratch / "patch"
    info = git(kdir, "mailinfo", "-b", str(msg), str(patch), stdin=mail.read_text(
        errors="surrogateescape"))
    head = dict(ln.split(": ", 1) for ln in info.splitlines() if ": " in ln)
    env = {"GIT_INDEX_FILE": str(index)}
    try:
        git(kdir, "apply", "--cached", str(patch), env=env)
    except PatchError as e:
        raise PatchError(f"{mail.parent.name}/{mail.name} does not apply to its base "
                         f"{parent[:12]} ({e}): was OUT made from this commit?") from None
    tree = git(kdir, "write-tree", env=env).strip()
    message = head.get("Subject", "") + "\n\n" + msg.read_text(errors="surrogateescape")
    return git(kdir, "commit-tree", tree, "-p", parent, env=commit_env(
        f"{head.get('Author', '')} <{head.get('Email', '')}>", head.get("Date", ""), committed),
        stdin=message).strip()


def series_commits(kdir: Path, out: Path, name: str, parent: str, who: str, base: str,
                   committed: int, scratch: Path) -> tuple[str, int]:
    """The branch of one series folder on top of parent: (tip, patches)."""
    d = out / "series" / name
    mails = sorted(p for p in d.glob("[0-9][0-9][0-9][0-9]-*.patch")
                   if not p.name.startswith("0000-"))
    cover = d / "0000-cover-letter.patch"
    fields, _ = split_mail(cover.read_text(errors="surrogateescape"))
    _, prefixes = subject_of(fields.get("subject", ""))
    change_id = (time.strftime("%Y%m%d", time.gmtime(committed)) + f"-detasklet-{name}-"
                 + hashlib.sha1(f"{base} {name}".encode()).hexdigest()[:12])
    text = cover_message(cover.read_text(errors="surrogateescape"), who.split(" <")[0],
                         change_id, prefixes)
    tree = git(kdir, "rev-parse", f"{parent}^{{tree}}").strip()
    tip = git(kdir, "commit-tree", tree, "-p", parent,
              env=commit_env(who, f"{committed} +0000", committed), stdin=text).strip()
    index = scratch / "index"
    git(kdir, "read-tree", tip, env={"GIT_INDEX_FILE": str(index)})
    for m in mails:
        tip = commit_patch(kdir, tip, m, index, scratch, committed)
    return tip, len(mails)


def current(kdir: Path, refs: list[str]) -> dict[str, str]:
    """The commit each existing ref of refs points to."""
    got: dict[str, str] = {}
    for ln in git(kdir, "for-each-ref", "--format=%(objectname) %(refname)", *refs).splitlines():
        sha, ref = ln.split(" ", 1)
        got[ref] = sha
    return got


def load_record(out: Path, kdir: Path) -> tuple[dict[str, str], dict[str, str]]:
    """(ref -> commit, ref -> the PREFIX it was made under) of the branches
    this OUT made in kdir's repository. A record written for another
    repository, or copied from another OUT, owns nothing."""
    try:
        data = json.loads((out / RECORD).read_text())
    except FileNotFoundError:
        return {}, {}
    except (OSError, ValueError):
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("refs", {}), dict):
        raise InputError(f"{out}/{RECORD} is damaged: delete the branches it named by hand "
                         "(git branch -D) and the file")
    if data.get("repository") != str(kdir) or data.get("out", str(out)) != str(out):
        return {}, {}
    refs = {str(k): str(v) for k, v in data.get("refs", {}).items()}
    prefixes = data.get("prefixes")
    if not isinstance(prefixes, dict):
        prefixes = {}
    return refs, {r: str(prefixes.get(r, "")) for r in refs}


def under(ref: str, prefix: str, made_under: str) -> bool:
    """ref was made under prefix (as recorded; an older record names no
    prefix: by its name)."""
    if made_under:
        return made_under == prefix
    return ref.startswith(f"refs/heads/{prefix}")


def checked_out(kdir: Path) -> dict[str, str]:
    """branch ref -> the work tree that has it checked out, of every
    worktree of kdir's repository (the main one first)."""
    got: dict[str, str] = {}
    tree = ""
    for ln in git(kdir, "worktree", "list", "--porcelain").splitlines():
        if ln.startswith("worktree "):
            tree = ln[len("worktree "):]
        elif ln.startswith("branch "):
            got.setdefault(ln[len("branch "):], tree)
    return got


def check_not_checked_out(kdir: Path, refs: list[str]) -> None:
    """None of refs is the branch of a work tree: moving it would change
    what that work tree's HEAD holds under it."""
    trees = checked_out(kdir)
    for r in refs:
        if r not in trees:
            continue
        name = r[len("refs/heads/"):]
        if Path(trees[r]).resolve() == kdir.resolve():
            raise InputError(f"HEAD is on {name}, a branch this command would move: check "
                             "out another branch first")
        raise InputError(f"branch {name} is checked out in the worktree {trees[r]}, whose "
                         "HEAD would move under it: check out another branch there first, or "
                         "choose another PREFIX=")


def make(kdir: Path, out: Path, prefix: str = "detasklet/") -> list[Made]:
    """The branches of OUT's series in KDIR's repository; see the module."""
    repository(kdir)
    rec = outfiles.load_report(out).get("series") or {}
    base, who = str(rec.get("base", "")), str(rec.get("from", ""))
    if not base:
        raise InputError("the series of OUT have no base commit (KDIR was not a git checkout, "
                         "or had changes not committed, when they were written): run make "
                         "series KDIR=<git checkout> [BASE=commit] first")
    try:
        base = git(kdir, "rev-parse", "--verify", "--quiet", f"{base}^{{commit}}").strip()
    except PatchError:
        raise InputError(f"base commit {base[:12]} of OUT's series is not in {kdir}'s "
                         "repository") from None
    names = folders(out)
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._/-]*/?", prefix) or ".." in prefix:
        raise InputError(f"branch prefix {prefix!r} is not a plain ref path")
    refs = {n: f"refs/heads/{prefix}{n}" for n in names}
    owned, made_under = load_record(out, kdir)
    exist = current(kdir, [*refs.values(), *owned])
    foreign = [r for r in refs.values() if r in exist and owned.get(r) != exist[r]]
    if foreign:
        raise InputError(f"branch {foreign[0][len('refs/heads/'):]} exists and was not made by "
                         "this OUT (or moved since): delete or rename it, or choose another "
                         "PREFIX=" + (f" ({len(foreign) - 1} more)" if len(foreign) > 1 else ""))
    # only what this OUT made under this PREFIX, still where it left it, is deleted
    stale = [r for r in owned if r not in refs.values() and exist.get(r) == owned[r]
             and under(r, prefix, made_under[r])]
    check_not_checked_out(kdir, [*refs.values(), *stale])
    committed = int(time.time())     # b4 prep looks for its cover commit in the last year
    made: list[Made] = []
    tips: dict[str, str] = {}
    with scratch.folder("branches") as tmp:
        needs = rec.get("needs", {}) if isinstance(rec.get("needs"), dict) else {}
        for n in names:
            # the part before, else the fixes series it applies on top of (net)
            parent = tips.get(previous_part(n, names)) or tips.get(needs.get(n, "")) or base
            tip, k = series_commits(kdir, out, n, parent, who, base, committed, Path(tmp))
            tips[n] = tip
            made.append(Made(refs[n], tip, k))
    tx = [f"update {m.ref} {m.commit} {exist.get(m.ref, ZERO)}" for m in made]
    tx += [f"delete {ref} {owned[ref]}" for ref in stale]
    git(kdir, "update-ref", "--stdin", stdin="\n".join(tx) + "\n")
    # the branches of other PREFIXes stay this OUT's, for a run under theirs
    keep = {r: c for r, c in owned.items() if r not in stale and r not in refs.values()
            and exist.get(r) == c}
    mine = {**keep, **{m.ref: m.commit for m in made}}
    write_file(out, RECORD, json.dumps({
        "repository": str(kdir), "out": str(out), "base": base, "refs": mine,
        "prefixes": {r: (prefix if r in refs.values() else made_under[r]) for r in mine}},
        indent=1) + "\n")
    for r in stale:
        log.info(f"deleted {r[len('refs/heads/'):]} (its series is gone)")
    return made


def main(kdir_arg: str, out_arg: str, prefix: str) -> int:
    kdir = Path(kdir_arg).resolve()
    kernel_version(kdir)
    out = place.existing(kdir, out_arg)
    with locked(out):
        made = make(kdir, out, prefix)
    for m in made:
        print(f"{m.ref[len('refs/heads/'):]:36} {m.patches:>3} "
              f"{'patch  ' if m.patches == 1 else 'patches'}  {m.commit[:12]}")
    print(f"branches: {len(made)} in {kdir}, each from the base commit; b4 prep -p or git "
          "format-patch takes them from there (work tree, index and HEAD untouched)")
    return 0
