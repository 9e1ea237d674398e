#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""make branches: one branch per series in KDIR's repository, and nothing
else of the repository touched.

Each case makes a small fake tree as a git repository (two MAINTAINERS
sections, so two series), converts it, runs the branches command and
checks one thing: each commit holds its mail's diff, the work tree, index
and HEAD are byte for byte as they were, b4 reads a branch as one of its
own, a rerun moves only the branches it made, and every refusal is one
line with the repository's refs unchanged. A case that needs b4 fails
when b4 is missing (make test installs it). Closing line:
'N passed, N failed'.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from fixtures import ENV as _ENV, FOO_C, detasklet, kernel, one_line_error, run_cases

ENV = {**_ENV, "DETASKLET_FROM": "T <t@example.org>", "DETASKLET_DATE": "1700000000",
       "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1"}
MAINTAINERS = """\
DMA FOO DRIVER
M:\tF <f@example.org>
L:\tdmaengine@vger.kernel.org
S:\tMaintained
F:\tdrivers/foo/

NET DRIVERS
M:\tN <n@example.org>
L:\tnetdev@vger.kernel.org
S:\tMaintained
F:\tdrivers/net/
"""


def git(repo: Path, *args: str, check: bool = True) -> str:
    r = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True,
                       env={**ENV, "GIT_AUTHOR_NAME": "U", "GIT_AUTHOR_EMAIL": "u@example.org",
                            "GIT_COMMITTER_NAME": "U", "GIT_COMMITTER_EMAIL": "u@example.org",
                            "GIT_AUTHOR_DATE": "1700000000 +0000",
                            "GIT_COMMITTER_DATE": "1700000000 +0000"})
    if check and r.returncode:
        raise RuntimeError(f"git {' '.join(args)}: {r.stderr.strip()}")
    return r.stdout


def refs(repo: Path) -> dict[str, str]:
    out = git(repo, "for-each-ref", "--format=%(refname) %(objectname)")
    return dict(ln.split() for ln in out.splitlines())


def diff_of(patch_text: str) -> list[str]:
    """The diff lines of a patch or of git show, without index lines."""
    start = ("\n" + patch_text).find("\ndiff --git ")
    body = ("\n" + patch_text)[start + 1:].split("\n-- \n")[0] if start >= 0 else ""
    return [ln for ln in body.splitlines() if not ln.startswith("index ")]


class World:
    """KDIR at top/linux (a git repository, one commit), OUT at top/out."""

    def __init__(self, top: Path, net: int = 2) -> None:
        self.top = top
        self.kdir = top / "linux"
        (self.kdir / "scripts").mkdir(parents=True)
        files = {"MAINTAINERS": MAINTAINERS, "drivers/foo/foo.c": FOO_C}
        for i in range(net):       # each its own driver: a section of its own
            files[f"drivers/net/n{i:02}/n{i:02}.c"] = FOO_C.replace("foo", f"n{i:02}")
            files["MAINTAINERS"] += (f"\nN{i:02} DRIVER\nM:\tN <n@example.org>\nS:\tMaintained\n"
                                     f"F:\tdrivers/net/n{i:02}/\n")
        kernel(self.kdir, files)
        git(self.kdir, "init", "-q", "-b", "master")
        git(self.kdir, "add", "-A")
        git(self.kdir, "commit", "-q", "-m", "base")
        self.out = top / "out"

    def convert(self) -> None:
        p = detasklet(["convert", str(self.kdir), "-o", str(self.out), "-q"], self.top, ENV)
        if p.returncode:
            raise RuntimeError(f"convert failed: {p.stderr[-300:]}")

    def branches(self, *extra: str, env: dict[str, str] | None = None
                 ) -> subprocess.CompletedProcess[str]:
        return detasklet(["branches", str(self.kdir), "-o", str(self.out), *extra], self.top,
                         {**ENV, **(env or {})})

    def folders(self) -> list[str]:
        return sorted(p.name for p in (self.out / "series").iterdir() if p.is_dir())

    def state(self) -> dict[str, bytes]:
        """The work tree, index and HEAD, byte for byte."""
        got = {str(p.relative_to(self.kdir)): p.read_bytes() for p in self.kdir.rglob("*")
               if p.is_file() and ".git" not in p.relative_to(self.kdir).parts}
        for n in ("index", "HEAD"):
            got[".git/" + n] = (self.kdir / ".git" / n).read_bytes()
        return got


def made(w: World) -> str:
    p = w.branches()
    if p.returncode:
        return f"exit {p.returncode}: {p.stderr[-300:]}"
    return ""


def refused(w: World, p: subprocess.CompletedProcess[str], words: str,
            before: dict[str, str]) -> str:
    return one_line_error(p, words) or ("" if refs(w.kdir) == before else
                                        f"refs changed: {sorted(set(refs(w.kdir)) ^ set(before))}")


# ---- what the branches hold ---------------------------------------------------

def case_one_commit_per_mail(w: World) -> str:
    """A cover commit on the base, then one commit per mail whose diff is
    the mail's diff."""
    w.convert()
    base = git(w.kdir, "rev-parse", "HEAD").strip()
    err = made(w)
    if err:
        return err
    for name in w.folders():
        mails = sorted((w.out / "series" / name).glob("0*.patch"))[1:]
        ref = f"detasklet/{name}"
        log = git(w.kdir, "rev-list", "--reverse", f"{base}..{ref}").split()
        if len(log) != len(mails) + 1:
            return f"{ref}: {len(log)} commits for {len(mails)} mails and a cover letter"
        if git(w.kdir, "rev-parse", f"{log[0]}^").strip() != base:
            return f"{ref} does not start at the base commit"
        if git(w.kdir, "diff", log[0] + "^", log[0]):
            return f"{ref}'s cover commit changes files"
        if "--- b4-submit-tracking ---" not in git(w.kdir, "log", "-1", "--format=%B", log[0]):
            return f"{ref}'s cover commit has no b4 tracking data"
        for sha, mail in zip(log[1:], mails):
            if diff_of(git(w.kdir, "show", "--format=", sha)) != diff_of(mail.read_text()):
                return f"{ref}: commit {sha[:12]} differs from {mail.name}"
            subj = re.search(r"^Subject: \[PATCH[^\]]*\] (.*)$", mail.read_text(), re.M)
            if not subj or git(w.kdir, "log", "-1", "--format=%s", sha).strip() != subj.group(1):
                return f"{ref}: commit {sha[:12]} lacks the subject of {mail.name}"
    if len(w.folders()) != 2:
        return f"want 2 series, got {w.folders()}"
    return ""


def case_kdir_untouched(w: World) -> str:
    """Work tree, index and HEAD byte for byte; only the new refs appear."""
    w.convert()
    before, before_refs = w.state(), refs(w.kdir)
    err = made(w)
    if err:
        return err
    if w.state() != before:
        return "the work tree, index or HEAD changed"
    new = set(refs(w.kdir)) - set(before_refs)
    want = {f"refs/heads/detasklet/{n}" for n in w.folders()}
    if new != want or any(refs(w.kdir)[r] != before_refs[r] for r in before_refs):
        return f"refs: {sorted(new)} new, want {sorted(want)}; others must not move"
    return "" if not git(w.kdir, "status", "--porcelain") else "git status is not clean"


def case_b4_reads_the_branch(w: World) -> str:
    """b4 prep in a clone sees the cover letter commit and the prefixes, and
    writes the cover letter and our two patches."""
    if not shutil.which("b4"):
        return "b4 is not installed (make test installs it)"
    w.convert()
    err = made(w)
    if err:
        return err
    clone = w.top / "clone"
    git(w.top, "clone", "-q", str(w.kdir), str(clone))
    git(clone, "config", "user.name", "T")
    git(clone, "config", "user.email", "t@example.org")
    git(clone, "checkout", "-q", "-b", "detasklet/net-next", "origin/detasklet/net-next")
    info = subprocess.run(["b4", "prep", "--show-info"], cwd=clone, capture_output=True,
                          text=True, env=ENV)
    if "cover-strategy: commit" not in info.stdout or "prefixes: net-next" not in info.stdout:
        return f"b4 prep --show-info: {(info.stdout + info.stderr)[-300:]!r}"
    p = subprocess.run(["b4", "prep", "-p", str(w.top / "b4")], cwd=clone, capture_output=True,
                       text=True, env=ENV)
    got = sorted((w.top / "b4").glob("*.patch")) if (w.top / "b4").is_dir() else []
    if p.returncode or len(got) != 3:
        return f"b4 prep -p: exit {p.returncode}, {len(got)} files ({p.stderr[-200:]!r})"
    ours = sorted((w.out / "series/net-next").glob("0*.patch"))
    if "[PATCH net-next 0/2]" not in got[0].read_text():
        return "b4's cover letter lacks [PATCH net-next 0/2]"
    for theirs, mine in zip(got[1:], ours[1:]):
        if diff_of(theirs.read_text()) != diff_of(mine.read_text()):
            return f"b4's {theirs.name} differs from {mine.name}"
    return ""


def case_parts_build_on_each_other(w: World) -> str:
    """A tree sent in parts: part 2's branch starts at part 1's tip."""
    w = World(w.top / "parts", net=16)
    w.convert()
    if {"net-next-1", "net-next-2"} - set(w.folders()):
        return f"want net-next in two parts, got {w.folders()}"
    err = made(w)
    if err:
        return err
    tip1 = git(w.kdir, "rev-parse", "detasklet/net-next-1").strip()
    n1 = len(list((w.out / "series/net-next-1").glob("0*.patch")))
    root2 = git(w.kdir, "rev-list", "--reverse", f"{tip1}..detasklet/net-next-2").split()
    if not root2 or git(w.kdir, "rev-parse", f"{root2[0]}^").strip() != tip1:
        return "part 2 does not start at part 1's tip"
    base = git(w.kdir, "rev-parse", "HEAD").strip()
    got = len(git(w.kdir, "rev-list", f"{base}..detasklet/net-next-1").split())
    return "" if got == n1 else f"part 1 has {got} commits for {n1} mails"


# ---- reruns ------------------------------------------------------------------

def case_rerun_moves_its_own_branches(w: World) -> str:
    """On a new base, the second run moves the branches the first made
    (after a convert that replaced OUT, whose record it carries over)."""
    w.convert()
    err = made(w)
    if err:
        return err
    first = refs(w.kdir)
    with open(w.kdir / "MAINTAINERS", "a") as f:
        f.write("\n")
    git(w.kdir, "commit", "-q", "-a", "-m", "a new base")
    w.convert()
    p = w.branches()
    if p.returncode:
        return f"rerun: exit {p.returncode}: {p.stderr[-300:]}"
    moved = [r for r in first if r.startswith("refs/heads/detasklet/")
             and refs(w.kdir)[r] != first[r]]
    return "" if len(moved) == 2 else f"{len(moved)} of 2 branches moved"


def case_stale_branch_deleted(w: World) -> str:
    """A series that is gone on the rerun loses the branch this tool made."""
    w.convert()
    err = made(w)
    if err:
        return err
    git(w.kdir, "rm", "-q", "-r", "drivers/foo")
    git(w.kdir, "commit", "-q", "-m", "no foo")
    w.convert()
    err = made(w)
    if err:
        return err
    have = {r for r in refs(w.kdir) if r.startswith("refs/heads/detasklet/")}
    return "" if have == {"refs/heads/detasklet/net-next"} else f"branches left: {sorted(have)}"


# ---- refusals: one line, refs unchanged -----------------------------------------

def case_branch_of_the_user_refused(w: World) -> str:
    w.convert()
    git(w.kdir, "branch", "detasklet/net-next")
    before = refs(w.kdir)
    return refused(w, w.branches(), "exists and was not made by this OUT", before)


def case_moved_branch_refused(w: World) -> str:
    """A branch the user committed to since is theirs now."""
    w.convert()
    err = made(w)
    if err:
        return err
    git(w.kdir, "update-ref", "refs/heads/detasklet/dmaengine", "master")
    before = refs(w.kdir)
    return refused(w, w.branches(), "moved since", before)


def case_head_on_a_branch_it_would_move(w: World) -> str:
    w.convert()
    err = made(w)
    if err:
        return err
    git(w.kdir, "symbolic-ref", "HEAD", "refs/heads/detasklet/net-next")
    before = refs(w.kdir)
    return refused(w, w.branches(), "HEAD is on detasklet/net-next", before)


def case_branch_checked_out_in_a_worktree_refused(w: World) -> str:
    """A branch it made and would move, checked out in another worktree:
    that worktree's HEAD would move under it."""
    w.convert()
    err = made(w)
    if err:
        return err
    git(w.kdir, "worktree", "add", "-q", str(w.top / "wt"), "detasklet/net-next")
    with open(w.kdir / "MAINTAINERS", "a") as f:
        f.write("\n")
    git(w.kdir, "commit", "-q", "-a", "-m", "a new base")
    w.convert()
    before = refs(w.kdir)
    wt_head = git(w.top / "wt", "rev-parse", "HEAD")
    err = refused(w, w.branches(), "checked out in the worktree", before)
    return err or ("" if git(w.top / "wt", "rev-parse", "HEAD") == wt_head
                   else "the worktree's HEAD moved")


def case_other_prefix_keeps_the_first(w: World) -> str:
    """PREFIX=v2/ after PREFIX=v1/ makes the v2 branches and keeps the v1
    ones; a later PREFIX=v1/ run still moves its own."""
    w.convert()
    p = w.branches("--prefix", "v1/")
    if p.returncode:
        return f"v1: exit {p.returncode}: {p.stderr[-300:]}"
    v1 = {r: c for r, c in refs(w.kdir).items() if r.startswith("refs/heads/v1/")}
    p = w.branches("--prefix", "v2/")
    if p.returncode:
        return f"v2: exit {p.returncode}: {p.stderr[-300:]}"
    now = refs(w.kdir)
    if any(now.get(r) != c for r, c in v1.items()) or len(v1) != 2:
        return f"the v1 branches changed: {sorted(v1)} -> {sorted(now)}"
    if len([r for r in now if r.startswith("refs/heads/v2/")]) != 2:
        return "the v2 branches were not made"
    p = w.branches("--prefix", "v1/")
    return "" if p.returncode == 0 else f"v1 again: exit {p.returncode}: {p.stderr[-300:]}"


def case_copy_of_out_owns_nothing(w: World) -> str:
    """A copy of an OUT (branches.json and all) neither moves nor deletes
    the branches the original made: they are refused as not its own."""
    w.convert()
    err = made(w)
    if err:
        return err
    copy = w.top / "copy"
    shutil.copytree(w.out, copy)
    before = refs(w.kdir)
    p = detasklet(["branches", str(w.kdir), "-o", str(copy)], w.top, ENV)
    return refused(w, p, "was not made by this OUT", before)


def case_not_a_git_checkout(w: World) -> str:
    w.convert()
    shutil.rmtree(w.kdir / ".git")
    return one_line_error(w.branches(), "is not a git checkout")


def case_changes_not_committed_no_base(w: World) -> str:
    """A tree with changes not committed: the series get no base-commit:
    (HEAD is not what they were made from) and branches are refused."""
    with open(w.kdir / "drivers/foo/foo.c", "a") as f:
        f.write("/* local change */\n")
    w.convert()
    texts = [p.read_text() for p in (w.out / "series").rglob("*.patch")]
    if any("base-commit:" in t for t in texts):
        return "a series has base-commit: though the tree has changes not committed"
    if json.loads((w.out / "report.json").read_text()).get("series", {}).get("base"):
        return "report.json names a base commit"
    before = refs(w.kdir)
    return refused(w, w.branches(), "no base commit", before)


def case_bad_prefix_refused(w: World) -> str:
    w.convert()
    before = refs(w.kdir)
    return refused(w, w.branches("--prefix", "../x"), "not a plain ref path", before)


def main() -> int:
    return run_cases(globals(), World, "detasklet-branches-test-")


if __name__ == "__main__":
    sys.exit(main())
