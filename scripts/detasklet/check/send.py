# SPDX-License-Identifier: GPL-2.0-only
"""send-check: is OUT/series/ fit to mail? Nothing is sent.

For every patch: `git am` into a scratch git repository made of the
pristine KDIR files it touches, on top of the earlier patches of its own
series that touch those files (a driver's prep patch before its
conversion; for a series that applies on top of another, net-next's on
net's fixes, that one's patches before its own), and `checkpatch.pl
--strict` run in KDIR. For the series: no
file in two trees' series; each file, its series' patches applied in
order, is what all.patch (or the core removal) makes of it; no patch needs
a header change that is in another patch (a file using a field or function
whose declaration another patch changes); no patch whose files build
pristine but fail converted (report.json "build", when make compile-test
ran). On a KDIR without git history checkpatch cannot know the commit id of
a Fixes: tag: UNKNOWN_COMMIT_ID is ignored there, and the summary says so.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from .. import proc, scratch
from ..ctext import gitdiff
from ..ctext.includes import Resolver
from ..ctext.lex import mask
from ..ctext.sources import read_text
from ..ctext.tasklet import STRUCT, declared_names
from ..errors import InputError, PatchError
from ..kdir import kernel_version
from ..out import files as outfiles, place
from ..out.staging import locked
from ..series import trees

_TYPE_RE = re.compile(r"^(ERROR|WARNING|CHECK):([A-Z0-9_]+):", re.M)
_GIT_ENV = {"GIT_AUTHOR_NAME": "detasklet", "GIT_AUTHOR_EMAIL": "detasklet@localhost.invalid",
            "GIT_COMMITTER_NAME": "detasklet",
            "GIT_COMMITTER_EMAIL": "detasklet@localhost.invalid",
            "GIT_AUTHOR_DATE": "@0 +0000", "GIT_COMMITTER_DATE": "@0 +0000",
            "GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent"}


@dataclass
class Result:
    name: str
    applied: str = ""                  # "" when it applied, else why not
    types: dict[str, int] = field(default_factory=dict)   # "WARNING:SPACING" -> n
    # of types, those the lines the patch replaces had as many times
    inherited: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def count(self, level: str) -> int:
        return sum(n - self.inherited.get(t, 0) for t, n in self.types.items()
                   if t.startswith(level + ":"))

    @property
    def ok(self) -> bool:
        return not self.applied and not self.count("ERROR") and not self.count("WARNING") \
            and not self.problems


def git_am(kdir: Path, patches: list[Path], paths: list[str]) -> str:
    """'' if patches apply, in order, with git am to the pristine copies
    of paths; else why the first that does not fails."""
    env = {**os.environ, **_GIT_ENV}
    with scratch.folder("am") as d:
        for p in paths:
            dst = Path(d, p)
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(kdir / p, dst)

        def git(*a: str) -> proc.Ran:
            return proc.run(["git", "-C", str(d), *a], env=env)
        for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "pristine"]):
            r = git(*cmd)
            if r.rc:
                return f"git {cmd[0]}: {r.stderr.strip()[:200]}"
        for patch in patches:
            r = git("am", "-q", str(patch.resolve()))
            if r.rc:
                why = (r.stdout + r.stderr).strip()
                why = why.splitlines()[0][:300] if why else "git am failed"
                return why if patch == patches[-1] else f"{patch.name}: {why}"
    return ""


def base(folder: list[Path], k: int, parsed: dict[str, list[gitdiff.FileDiff]]) -> list[Path]:
    """The patches of one series a maintainer applies before folder[k]
    that it depends on: the earlier ones touching its files, or the files
    of those (a prep patch before the conversion of the same driver); in
    series order, folder[k] last."""
    need = {fd.path for fd in parsed[key(folder[k])]}
    take = [folder[k]]
    for p in reversed(folder[:k]):
        files = {fd.path for fd in parsed[key(p)]}
        if files & need:
            need |= files
            take.append(p)
    return take[::-1]


def pristine(kdir: Path, path: str) -> str:
    """path as KDIR has it; "" for a file the series creates."""
    return read_text(kdir / path) if (kdir / path).is_file() else ""


def series_contents(kdir: Path, parsed: dict[str, list[gitdiff.FileDiff]],
                    first: frozenset[str] = frozenset()) -> tuple[dict[str, str], list[str]]:
    """Every file the series touches, its patches applied in order (the
    order of series/: a prep patch before the conversion; the folders of
    first, fixes series others apply on top of, before the rest); and the
    files whose patches do not apply so."""
    got: dict[str, list[gitdiff.FileDiff]] = {}
    for name in sorted(parsed, key=lambda n: (n.split("/")[0] not in first, n)):
        for fd in parsed[name]:
            got.setdefault(fd.path, []).append(fd)
    texts, bad = {}, []
    for p, fl in got.items():
        try:
            now = pristine(kdir, p)
            for fd in fl:
                now = gitdiff.apply(now, fd)
            texts[p] = now
        except PatchError as e:
            bad.append(f"{p}: {e}")
    return texts, bad


def final_contents(kdir: Path, texts: dict[str, str],
                   expected: list[gitdiff.FileDiff]) -> list[str]:
    """Where the series (texts, from series_contents) and the expected
    diffs (all.patch, the core removal) disagree."""
    want = {fd.path: fd for fd in expected}
    res = [f"{p} is in no patch of the series" for p in sorted(want.keys() - texts.keys())]
    res += [f"{p} is in the series, not in all.patch" for p in sorted(texts.keys() - want.keys())]
    for p in sorted(want.keys() & texts.keys()):
        try:
            same = texts[p] == gitdiff.apply(pristine(kdir, p), want[p])
        except PatchError as e:
            res.append(f"all.patch: {e}")
            continue
        if not same:
            res.append(f"{p}: its patches together differ from all.patch")
    return res


def reverse(text: str) -> str:
    """A patch the other way round: what it removes, added (the commit
    message and the file headers stay). checkpatch reads it to see what
    the replaced lines already had."""
    out = []
    diffs = False
    for ln in text.splitlines(keepends=True):
        m = re.match(r"^@@ -(\S+) \+(\S+) @@(.*)", ln, re.S)
        diffs = diffs or ln.startswith("diff ")
        if m:
            ln = f"@@ -{m[2]} +{m[1]} @@{m[3]}"
        elif not diffs or ln.startswith(("+++ ", "--- ", "diff ")):
            pass
        elif ln.startswith("+"):
            ln = "-" + ln[1:]
        elif ln.startswith("-") and not ln.startswith("-- \n"):
            ln = "+" + ln[1:]
        out.append(ln)
    return "".join(out)


def inherited(kdir: Path, patch: Path, types: dict[str, int]) -> dict[str, int]:
    """Of the error and warning types of patch, how many of each the lines
    it removes had too (checkpatch on the reversed patch): an assertion
    macro or a long line the driver already had, changed in place."""
    if not any(t.startswith(("ERROR:", "WARNING:")) for t in types):
        return {}
    with tempfile.NamedTemporaryFile("w", suffix=".patch", errors="surrogateescape",
                                     prefix=f"detasklet-{os.getpid()}-rev-") as f:
        f.write(reverse(patch.read_text(errors="surrogateescape")))
        f.flush()
        before = checkpatch(kdir, Path(f.name))
    return {t: min(n, before.get(t, 0)) for t, n in types.items()
            if t.startswith(("ERROR:", "WARNING:")) and before.get(t)}


def unchecked_ids(kdir: Path) -> list[str]:
    """checkpatch's --ignore for a KDIR that is no git repository (a
    source package): it cannot know any commit id, so a Fixes: tag's
    would always be UNKNOWN_COMMIT_ID; the tag's form is still checked
    (BAD_FIXES_TAG)."""
    return [] if (kdir / ".git").exists() else ["--ignore", "UNKNOWN_COMMIT_ID"]


def checkpatch(kdir: Path, patch: Path) -> dict[str, int]:
    r = proc.run(["perl", "scripts/checkpatch.pl", "--strict", "--show-types",
                  *unchecked_ids(kdir), str(patch.resolve())], cwd=kdir)
    types: dict[str, int] = {}
    for lvl, typ in _TYPE_RE.findall(r.stdout):
        types[f"{lvl}:{typ}"] = types.get(f"{lvl}:{typ}", 0) + 1
    if r.rc and not types:
        types["ERROR:CHECKPATCH_FAILED"] = 1
    return types


def decl_names(fd: gitdiff.FileDiff) -> tuple[set[str], set[str]]:
    """(fields, functions) whose declaration a header's diff changes."""
    removed = "".join(fd.lines("-"))
    fields = declared_names(removed)
    funcs = set(re.findall(r"\b(\w+)\s*\([^;{]*\bunsigned\s+long\b[^;{]*\)\s*;", removed))
    funcs |= set(re.findall(r"\b(\w+)\s*\(\s*" + STRUCT, removed))
    return fields, funcs


def dependencies(kdir: Path, owner: dict[str, str],
                 fds: dict[str, gitdiff.FileDiff], texts: dict[str, str]) -> list[str]:
    """'F (patch P) uses X declared in H (patch Q)' for every changed file
    F that reaches (through #include) a header H changed by another patch
    and, as its series leaves it (texts), names a field or function whose
    declaration H's diff changes."""
    heads = {h: decl_names(fds[h]) for h in fds if h.endswith(".h")}
    if not heads:
        return []
    res = Resolver(kdir)
    out = []
    for f in sorted(fds):
        seen, todo = {f}, [f]
        while todo:
            for h in res.of(todo.pop()):
                if h not in seen:
                    seen.add(h)
                    todo.append(h)
        code = None
        for h in sorted(seen & heads.keys()):
            if owner[h] == owner[f]:
                continue
            if code is None:
                code = mask(texts[f] if f in texts else pristine(kdir, f))
            fields, funcs = heads[h]
            used = [x for x in sorted(fields) if re.search(r"(->|\.)\s*" + x + r"\b", code)]
            used += [x for x in sorted(funcs) if re.search(r"\b" + x + r"\b", code)]
            if used:
                out.append(f"{f} ({owner[f]}) uses {', '.join(used)}, declared in {h} "
                           f"({owner[h]})")
    return out


# An absolute path in a message (a local folder of the machine that made it).
_ABS_RE = re.compile(r"(?:^|[\s(\"'=])(/[\w.+-]+/[\w.+/-]+)")


def mail_problems(out: Path) -> list[str]:
    """What a maintainer would send back before reading the code: a
    series longer than its tree takes, a local path in a message or a
    cover letter, a reason with a hole where a line number was."""
    table = trees.load_table()
    limits = {r.get("tag", ""): int(r.get("limit", 0)) for r in table.values() if r.get("tag")}
    res = []
    for d in sorted(p for p in (out / "series").glob("*/") if p.is_dir()):
        mails = sorted(d.glob("[0-9][0-9][0-9][0-9]-*.patch"))
        n = len([m for m in mails if not m.name.startswith("0000-")])
        for m in mails:
            text = m.read_text(errors="replace")
            msg = text.split("\n---\n", 1)[0]
            subj = re.search(r"^Subject: \[PATCH (\S+) \d+/\d+\]", text, re.M)
            lim = limits.get(subj.group(1), 0) if subj else 0
            if m.name.startswith("0000-") and lim and n > lim:
                res.append(f"{d.name}: {n} patches, its tree takes at most {lim}")
            for x in _ABS_RE.findall(msg):
                res.append(f"{d.name}/{m.name}: a local path in the message: {x}")
            for x in re.findall(r"\w+ \(\)|\bof held\b|\(registered \)", msg):
                res.append(f"{d.name}/{m.name}: a reason lost its words: '{x}'")
    return res


def key(p: Path) -> str:
    """A patch of series/ as the lines name it: <tree folder>/<file>."""
    return f"{p.parent.name}/{p.name}"


def _parsed(patches: list[Path]) -> dict[str, list[gitdiff.FileDiff]]:
    """Each patch of series/ read back, by key()."""
    parsed = {}
    for p in patches:
        try:
            parsed[key(p)] = gitdiff.parse(p.read_text(errors="surrogateescape"))
        except PatchError as e:
            raise InputError(f"{p} is damaged ({e}): run make series again") from None
    return parsed


def needed(rep: dict) -> dict[str, str]:
    """report.json "series" "needs": each series folder that applies on top
    of another one (net-next-1 on net, the fixes of its drivers)."""
    got = rep.get("series", {})
    return dict(got.get("needs", {})) if isinstance(got, dict) else {}


def _series_problems(kdir: Path, out: Path, rep: dict,
                     parsed: dict[str, list[gitdiff.FileDiff]]) -> list[str]:
    """What is wrong with the series as a whole: a file in two trees'
    series, contents that are not all.patch's (and the core removal's), a
    patch that needs one of a later tree, the mails' own problems."""
    # a file is in one tree's series (and in the fixes series that one
    # applies on top of); there, its last patch owns it
    needs = needed(rep)
    owner: dict[str, str] = {}
    problems = []
    for name in sorted(parsed, key=lambda n: (n.split("/")[0] not in needs.values(), n)):
        for fd in parsed[name]:
            was = owner.get(fd.path, name).split("/")[0]
            if was != name.split("/")[0] and needs.get(name.split("/")[0]) != was:
                problems.append(f"{fd.path} is in {owner[fd.path]} and {name}")
            owner[fd.path] = name
    expected = gitdiff.parse(outfiles.load_patch(out))
    core = rep.get("core", {}).get("patch")
    if core and (out / core).is_file():
        expected += gitdiff.parse((out / core).read_text(errors="surrogateescape"))
    texts, bad = series_contents(kdir, parsed, frozenset(needs.values()))
    problems += bad + final_contents(kdir, texts, expected)
    fds = {fd.path: fd for fl in parsed.values() for fd in fl}
    # the core removal needs every user converted, not the other way round
    # (the build with it applied and the leftovers check are its evidence)
    core_files = set(rep.get("core", {}).get("files", []))
    problems += dependencies(kdir, owner, {p: fd for p, fd in fds.items()
                                           if p not in core_files}, texts)
    return problems + mail_problems(out)


def _one(kdir: Path, p: Path, folder: list[Path], parsed: dict[str, list[gitdiff.FileDiff]],
         builds: dict) -> Result:
    """One patch: git am on the earlier patches of its series that touch
    its files, checkpatch --strict, and compile-test's word on its files."""
    r = Result(key(p))
    chain = base(folder, folder.index(p), parsed)
    r.applied = git_am(kdir, chain, sorted({fd.path for q in chain for fd in parsed[key(q)]}))
    r.types = checkpatch(kdir, p)
    r.inherited = inherited(kdir, p, r.types)
    for fd in parsed[key(p)]:
        b = builds.get(fd.path)
        if b and b.breaks:
            r.problems.append(f"{fd.path} builds pristine, fails converted ({b.arch})")
    return r


def _print(results: list[Result], series_problems: list[str]) -> None:
    """One line a patch, one a series problem, and the summary."""
    total: dict[str, int] = {}
    for n, r in enumerate(results, 1):
        for t, k in r.types.items():
            total[t] = total.get(t, 0) + k
        what = "ok" if r.ok else "FAIL"
        detail = [f"git am: {r.applied}"] if r.applied else []
        detail += [f"{t} x{k}" + (f" ({r.inherited[t]} as in the lines it replaces)"
                                  if r.inherited.get(t) else "")
                   for t, k in sorted(r.types.items())] + r.problems
        print(f"[{n}/{len(results)}] {what} {r.name}" + (f": {'; '.join(detail)}" if detail else ""))
    for s in series_problems:
        print(f"series: FAIL {s}")
    applied = sum(not r.applied for r in results)
    clean = sum(not r.count("ERROR") and not r.count("WARNING") for r in results)
    strict = sum(not r.types for r in results)
    kept = sum(bool(r.inherited) for r in results)
    print(f"send-check: {len(results)} patches; {applied} apply with git am (alone, or on "
          "the earlier patches of their series that touch their files); "
          f"{clean} checkpatch --strict clean of the errors and warnings they add ({kept} "
          f"keep some the lines they replace had; {strict} with no CHECK at all); "
          f"{len(series_problems)} series problems"
          + ("; by type: " + ", ".join(f"{t} {k}" for t, k in sorted(total.items()))
             if total else ""))


def check(kdir: Path, out: Path, jobs: int = 2) -> int:
    """Every patch of OUT/series/ alone, and the series; one line a patch
    and a summary on stdout; 1 on any failure."""
    patches = outfiles.series_patches(out)
    if not patches:
        print(f"send-check: no patches in {out / 'series'}")
        return 1
    rep = outfiles.load_report(out)
    parsed = _parsed(patches)
    series_problems = _series_problems(kdir, out, rep, parsed)
    builds = outfiles.builds(rep)
    folders: dict[str, list[Path]] = {}
    for p in patches:
        folders.setdefault(p.parent.name, []).append(p)
    needs = needed(rep)
    # a series that applies on top of another: that one's patches first
    chains = {n: folders.get(needs.get(n, ""), []) + ps for n, ps in folders.items()}
    with ThreadPoolExecutor(max_workers=max(jobs, 1)) as ex:
        results = list(ex.map(lambda p: _one(kdir, p, chains[p.parent.name], parsed, builds),
                              patches))
    _print(results, series_problems)
    tagged = sum("\nFixes: " in p.read_text(errors="replace").split("\n---\n", 1)[0]
                 for p in patches)
    if tagged and unchecked_ids(kdir):
        print(f"send-check: {tagged} patches have a Fixes: tag; {kdir} has no git history, "
              "so the commit ids are not checked (only the tags' form)")
    return 0 if all(r.ok for r in results) and not series_problems else 1


def main(kdir_arg: str, out_arg: str, jobs: int) -> int:
    kdir = Path(kdir_arg).resolve()
    kernel_version(kdir)
    out = place.existing(kdir, out_arg)
    with locked(out, shared=True):
        return check(kdir, out, jobs)
