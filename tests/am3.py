#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""git am -3 of a whole OUT/series/ onto a tree where a context line moved.

    PYTHONPATH=scripts python3 tests/am3.py KDIR OUT [FOLDER...]

A temporary git repository gets the pristine text (from KDIR, never
written) of every file the mails touch; a second commit moves, in each of
them, one context line of its first hunk that no changed line touches and
that is unique in the file, to the end of the file (a line that a change
of any mail touches would be a real conflict, not a move). Each series folder is
then applied with plain `git am` (counted: it should fail where the moved
line is context) and with `git am -3` on a branch of its own from that
commit (it must apply every mail). One line per series, then
'N passed, N failed' (git am -3) and how many series plain git am failed.
The core removal applies on top of every other series, so its mail is
left out (the rest of its series is applied). A series that applies on top
of another (report.json "series" "needs": net-next's on net's fixes) is
applied after that one's mails.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

from detasklet.ctext import gitdiff  # noqa: E402


def git(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {"PATH": os.environ["PATH"], "HOME": str(cwd), "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_AUTHOR_NAME": "M", "GIT_AUTHOR_EMAIL": "m@e.org",
           "GIT_COMMITTER_NAME": "M", "GIT_COMMITTER_EMAIL": "m@e.org"}
    return subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, text=True,
                          env=env, errors="surrogateescape")


def quiet(line: str, fds: list[gitdiff.FileDiff]) -> bool:
    """line is context wherever a hunk of fds has it, with context on both
    sides: moving it conflicts with no change of the series."""
    for fd in fds:
        for _, hunk in fd.hunks:
            for i, ln in enumerate(hunk):
                if ln[1:] != line:
                    continue
                if not ln.startswith(" ") or not all(x.startswith(" ")
                                                     for x in hunk[max(i - 1, 0):i + 2]):
                    return False
    return True


def move_line(path: Path, fds: list[gitdiff.FileDiff]) -> bool:
    """Move to the end of the file one context line of the first diff that
    is unique in the file and that no changed line of any diff touches."""
    text = path.read_text(errors="surrogateescape")
    for _, hunk in fds[0].hunks:
        for ln in hunk:
            if ln.startswith(" ") and ln.strip() and text.count(ln[1:]) == 1 \
                    and quiet(ln[1:], fds):
                path.write_text(text.replace(ln[1:], "", 1) + ln[1:], errors="surrogateescape")
                return True
    return False


def main(kdir: Path, out: Path, only: list[str]) -> int:
    folders = sorted(d for d in (out / "series").iterdir() if d.is_dir())
    mails = {d.name: sorted(m for m in d.glob("0*.patch") if "cover-letter" not in m.name)
             for d in folders}
    # the core removal applies on top of every other series: its mail alone is left out
    mails = {k: [m for m in v if "Remove-the-tasklet-API" not in m.name]
             for k, v in mails.items() if not only or k in only}
    mails = {k: v for k, v in mails.items() if v}
    rep = json.loads((out / "report.json").read_text()) if (out / "report.json").is_file() else {}
    needs = (rep.get("series") or {}).get("needs", {})
    # a series that applies on top of another (net-next's on net's fixes): that one first
    before = {k: sorted(m for m in (out / "series" / needs[k]).glob("0*.patch")
                        if "cover-letter" not in m.name) if k in needs else [] for k in mails}
    with tempfile.TemporaryDirectory(prefix="detasklet-am3-") as t:
        repo = Path(t)
        first: dict[str, list[gitdiff.FileDiff]] = {}
        for ms in mails.values():
            for m in ms:
                for fd in gitdiff.parse(m.read_text(errors="surrogateescape")):
                    first.setdefault(fd.path, []).append(fd)
        for p in first:
            (repo / p).parent.mkdir(parents=True, exist_ok=True)
            (repo / p).write_bytes((kdir / p).read_bytes())
        if (kdir / ".gitattributes").is_file():
            (repo / ".gitattributes").write_bytes((kdir / ".gitattributes").read_bytes())
        for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "pristine"]):
            git(repo, *args)
        moved = sum(move_line(repo / p, fds) for p, fds in first.items())
        git(repo, "commit", "-q", "-am", "one context line moved in each file")
        base = git(repo, "rev-parse", "HEAD").stdout.strip()
        passed = failed = plain_failed = 0
        for name, ms in mails.items():
            git(repo, "checkout", "-q", "-f", "-B", f"plain-{name}", base)
            plain = git(repo, "am", *map(str, before[name] + ms)).returncode == 0
            git(repo, "am", "--abort")
            git(repo, "checkout", "-q", "-f", "-B", f"three-{name}", base)
            r = git(repo, "am", "-3", *map(str, before[name] + ms))
            git(repo, "am", "--abort")
            ok = r.returncode == 0
            passed, failed = passed + ok, failed + (not ok)
            plain_failed += not plain
            print(f"{'ok  ' if ok else 'FAIL'} {name}: {len(ms)} mails"
                  + ("" if plain else " (plain git am fails)")
                  + ("" if ok else f": {(r.stderr + r.stdout).strip()[-600:]}"))
        print(f"{moved} of {len(first)} files had a context line moved; plain git am failed "
              f"on {plain_failed} of {len(mails)} series")
        print(f"{passed} passed, {failed} failed")
        return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:]))
