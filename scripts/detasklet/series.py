"""all.patch, and series/: one git format-patch file per driver.

`write` (end of convert) lays out the rewritten files (style.tidy), writes
all.patch and groups.json (the groups of files that share a tasklet).
`build` makes series/ from OUT alone plus the pristine KDIR, so that
`make series` never runs spatch again: the new texts are all.patch applied
to KDIR, the groups come from groups.json, the build records and the
reasons for unconverted files from report.json.

A patch is a driver (owners.py); its subject prefix comes from git
history or the table in prefix.py; its message from message.py; To/Cc
from KDIR's get_maintainer.pl. Everything in the output is a function of
the inputs and of the identity, date and base given: a second run writes
the same bytes.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import posixpath
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from . import gitdiff, maintainers, message, outdir, owners, prefix, style
from .errors import InputError, PatchError
from .classify import Outcome

SIGNATURE = "2.39.5"
SUBJECT = "Convert from tasklet to BH workqueue"
FALLBACK_FROM = "detasklet <detasklet@localhost.invalid>"


def unified(path: str, old: str, new: str) -> str:
    """The diff -u form the golden tests (tests/run.py) compare against."""
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    lines = []
    for ln in difflib.unified_diff(a, b, f"a/{path}", f"b/{path}"):
        if not ln.endswith("\n"):
            ln += "\n\\ No newline at end of file\n"
        lines.append(ln)
    if not lines:
        return ""
    return f"diff -u a/{path} b/{path}\n" + "".join(lines)


# ------------------------------------------------------------------ convert

def write(out: Path, groups: list[list[Outcome]]) -> tuple[int, int]:
    """all.patch (git form, laid out by style.tidy) and groups.json.
    Returns (converted files, converted groups)."""
    conv_groups = [sorted((o for o in g if o.status == "converted"), key=lambda o: o.path)
                   for g in groups]
    conv_groups = [g for g in conv_groups if g]
    conv = sorted((o for g in conv_groups for o in g), key=lambda o: o.path)
    (out / "all.patch").write_text("".join(
        gitdiff.file_diff(o.path, o.old, style.tidy(o.old, o.new)) for o in conv))
    (out / "groups.json").write_text(json.dumps(
        {"groups": sorted([o.path for o in g] for g in conv_groups)}, indent=1) + "\n")
    return len(conv), len(conv_groups)


# ------------------------------------------------------------------ inputs

@dataclass
class Ident:
    name_email: str
    date: int            # seconds since the epoch, UTC
    base: str = ""       # base-commit, if known
    source: str = ""     # where the identity came from


def identity(kdir: Path, from_: str | None = None, base: str | None = None) -> Ident:
    """From: DETASKLET_FROM / --from, else git config user.name/email, else
    FALLBACK_FROM (with a warning). Date: DETASKLET_DATE (epoch seconds),
    else SOURCE_DATE_EPOCH, else the committer date of KDIR's HEAD when it is
    a git checkout, else the mtime of KDIR/Makefile (the release date of an
    unpacked tree): never the clock, so two runs write the same bytes."""
    who = from_ or os.environ.get("DETASKLET_FROM", "")
    src = "DETASKLET_FROM"
    if not who:
        def cfg(k: str) -> str:
            r = subprocess.run(["git", "config", k], capture_output=True, text=True)
            return r.stdout.strip() if r.returncode == 0 else ""
        name, email = cfg("user.name"), cfg("user.email")
        who, src = (f"{name} <{email}>", "git config") if name and email else ("", "")
    if not who:
        who, src = FALLBACK_FROM, "fallback"
        print(f"detasklet: no identity (set DETASKLET_FROM= or git config user.name and "
              f"user.email); using {FALLBACK_FROM}", file=sys.stderr)
    git = prefix.is_git(kdir)
    date = identity_date(kdir, base)
    if not base and git:
        r = subprocess.run(["git", "-C", str(kdir), "rev-parse", "HEAD"],
                           capture_output=True, text=True)
        base = r.stdout.strip()
    return Ident(who, date, base or "", src)


def identity_date(kdir: Path, base: str | None = None) -> int:
    """The date of the patches (see identity); a DETASKLET_DATE or
    SOURCE_DATE_EPOCH that is not a whole number is an InputError."""
    for var in ("DETASKLET_DATE", "SOURCE_DATE_EPOCH"):
        date_s = os.environ.get(var, "")
        if date_s:
            try:
                date = int(date_s)
            except ValueError:
                raise InputError(f"{var}={date_s!r} is not a whole number of seconds "
                                 "since 1970") from None
            if not 0 <= date < 1 << 40:
                raise InputError(f"{var}={date_s!r} is out of range")
            return date
    if prefix.is_git(kdir):
        r = subprocess.run(["git", "-C", str(kdir), "log", "-1", "--format=%ct", base or "HEAD"],
                           capture_output=True, text=True)
        return int(r.stdout.strip() or 0) if r.stdout.strip().isdigit() else 0
    return int((kdir / "Makefile").stat().st_mtime)


def rfc2822(ts: int) -> str:
    t = time.gmtime(ts)
    return (f"{time.strftime('%a', t)}, {t.tm_mday} {time.strftime('%b %Y %H:%M:%S', t)} +0000")


def load(kdir: Path, out: Path) -> tuple[dict[str, gitdiff.FileDiff], dict[str, str],
                                         list[list[str]], dict]:
    """(diffs by path, pristine texts, groups, report.json) of an OUT,
    checked (outdir.load_*): a damaged or inconsistent OUT is an InputError."""
    rep = outdir.load_report(out)
    text = outdir.load_patch(out)
    try:
        fds = {fd.path: fd for fd in gitdiff.parse(text)}
    except PatchError as e:
        raise InputError(f"{out}/all.patch is damaged ({e}): run make convert again") from None
    outdir.check_consistent(out, rep, list(fds))
    old = {}
    for p in fds:
        try:
            old[p] = (kdir / p).read_bytes().decode("utf-8", errors="surrogateescape")
        except OSError as e:
            raise InputError(f"cannot read {p} of KDIR ({e.strerror}): is KDIR the tree "
                             "all.patch was made from?") from None
    # all.patch in its canonical form: git headers, laid out by style.tidy
    # (an OUT written before those, or by hand, is brought to it)
    try:
        canon = {p: gitdiff.file_diff(p, old[p], style.tidy(old[p], gitdiff.apply(old[p], fd)))
                 for p, fd in sorted(fds.items())}
    except PatchError as e:
        raise InputError(f"{out}/all.patch does not apply to KDIR {kdir} ({e}): is KDIR "
                         "the tree it was made from?") from None
    if "".join(canon.values()) != text:
        outdir.write_file(out, "all.patch", "".join(canon.values()))
    fds = {p: gitdiff.parse(t)[0] for p, t in canon.items() if t}
    groups = [[p for p in g if p in fds] for g in outdir.load_groups(out)]
    groups = [g for g in groups if g]
    seen = {p for g in groups for p in g}
    groups += [[p] for p in sorted(fds) if p not in seen]
    return fds, old, groups, rep


# ------------------------------------------------------------------ patches

@dataclass
class Patch:
    files: list[str]
    prefix: str = ""
    sep: str = ":"
    source: str = ""          # history | table | path
    name: str = ""            # the driver, for the message
    entries: list[str] = field(default_factory=list)
    shared: str = ""          # why files of several sections are one patch
    found: bool = False       # the prefix's driver name is in MAINTAINERS or the paths
    to: list[str] = field(default_factory=list)
    cc: list[str] = field(default_factory=list)
    no_rcpt: str = ""         # why the patch has no To/Cc, when it has none

    @property
    def subject(self) -> str:
        return f"{self.prefix}{self.sep} {SUBJECT}"


def _tasklet_fields(text: str) -> list[str]:
    return sorted(set(re.findall(r"\bstruct\s+tasklet_struct\s*\*?\s*(\w+)", text)))


def name_patch(files: list[str], drivers: dict[str, owners.Driver],
               old: dict[str, str]) -> tuple[str, str]:
    """(where, name): the folder and the short name of the driver of a
    patch (see prefix.from_table); a folder named after a bus (pcie/) is
    replaced by its parent (qtnfmac)."""
    where, name = _name_patch(files, drivers, old)
    if not any(_norm(name) in _norm(f) for f in files):
        # a module named unlike its files (hdma from hidma.c): the files' name
        stems = [posixpath.splitext(posixpath.basename(f))[0] for f in files]
        name = prefix.common_name(stems) or name
    while name in prefix.GENERIC and "/" in where and prefix.root_of(where + "/") != where + "/":
        where, name = posixpath.dirname(where), posixpath.basename(where)
    return where, name


def _name_patch(files: list[str], drivers: dict[str, owners.Driver],
                old: dict[str, str]) -> tuple[str, str]:
    keys = {drivers[f].key for f in files}
    cs = [f for f in files if f.endswith(".c")] or files
    if all(f.startswith("include/") for f in files) and len(files) == 1:
        return posixpath.dirname(files[0]), posixpath.splitext(posixpath.basename(files[0]))[0]
    if len(keys) == 1:
        d = drivers[files[0]]
        if d.kind == "entry":
            names = sorted({drivers[f].name for f in cs})
            if len(names) == 1:
                return d.folder, names[0]
            common = posixpath.commonpath([posixpath.dirname(f) for f in files])
            return common, prefix.common_name(names) or posixpath.basename(common)
        if d.kind == "folder" and prefix.root_of(f"{d.folder}/{d.name}/") == f"{d.folder}/{d.name}/":
            # the folder is a whole subsystem's (drivers/atm/): name the module
            names = sorted({drivers[f].module for f in cs})
            return f"{d.folder}/{d.name}", prefix.common_name(names) or names[0]
        if d.kind == "folder":
            # the deepest folder of the files (qtnfmac/ in quantenna/)
            common = posixpath.commonpath([posixpath.dirname(f) for f in files])
            return posixpath.dirname(common), posixpath.basename(common)
        return d.folder, d.name
    local = [f for f in files if not f.startswith("include/")] or files
    common = posixpath.commonpath([posixpath.dirname(f) for f in local])
    root = prefix.root_of(common + "/")
    one_folder_of_many = all(posixpath.dirname(f) == common and drivers[f].kind in ("module", "entry")
                             for f in local)
    if root and len(common) + 1 > len(root) and common + "/" != root and \
            not one_folder_of_many:
        return posixpath.dirname(common), posixpath.basename(common)
    # the header most files include names it (virt-dma.h, usbnet.h)
    hs = [f for f in files if f.endswith(".h")]
    if hs:
        def users(h: str) -> int:
            b = posixpath.basename(h)
            return sum(b in old[f] for f in files if f != h)
        h = max(sorted(hs), key=users)
        stem = posixpath.splitext(posixpath.basename(h))[0]
        twin = [f for f in local if posixpath.basename(f) == stem + ".c"]
        where = posixpath.dirname(twin[0] if twin else local[0])
        return where, stem
    return posixpath.dirname(common), posixpath.basename(common)


def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]", "", s.lower())


def name_found(pfx: str, files: list[str], entries: list[maintainers.Entry]) -> bool:
    """The last component of the prefix (the driver) is named by a
    MAINTAINERS section that owns the files (title or F: pattern) or is
    part of a path of the patch: the check behind 'matches MAINTAINERS'."""
    last = _norm(re.split(r"[:/ ]+", pfx.strip())[-1])
    if not last:
        return False
    hay = [_norm(e.name) for e in entries] + [_norm(f) for e in entries for f in e.files]
    hay += [_norm(f) for f in files]
    return any(last in h for h in hay)


def plan(kdir: Path, fds: dict[str, gitdiff.FileDiff], old: dict[str, str],
         groups: list[list[str]]) -> list[Patch]:
    """The patches: drivers, joined groups, subjects."""
    text = (kdir / "MAINTAINERS").read_text(errors="replace") \
        if (kdir / "MAINTAINERS").is_file() else ""
    index = maintainers.Index(maintainers.parse(text, lambda p: (kdir / p).is_dir()))
    mods: dict[str, dict[str, str]] = {}
    drivers: dict[str, owners.Driver] = {}
    for f in sorted(fds):
        d = posixpath.dirname(f)
        if d not in mods:
            mods[d] = owners.kbuild_modules(owners.read_kbuild(kdir, d))
        drivers[f] = owners.driver_of(f, index, mods[d],
                                      lambda x: owners.building_folder(kdir, x),
                                      lambda d: bool(owners.read_kbuild(kdir, d)))
    git = prefix.is_git(kdir)
    patches = []
    for units in owners.split(groups, drivers):
        files = sorted(f for u in units for f in u)
        p = Patch(files)
        where, p.name = name_patch(files, drivers, old)
        hist = prefix.from_history(kdir, files) if git else None
        if hist:
            (p.prefix, p.sep), p.source = hist, "history"
        else:
            p.prefix, p.sep, p.source = prefix.from_table(where, p.name)
        own = {f: index.owner(f) for f in files}
        p.found = p.source == "history" or name_found(p.prefix, files, [
            e for o in own.values() if o for e in [o[1]]])
        p.entries = sorted({o[1].name for o in own.values() if o})
        crossing = [u for u in units if len({own[f][1].name for f in u if own[f]}) > 1]
        if crossing:
            hs = [f for u in crossing for f in u if f.endswith(".h")]
            hs = [h for h in hs if _tasklet_fields(old[h])] or hs
            fields = sorted({x for h in hs for x in _tasklet_fields(old[h])})
            p.shared = ("These files are changed in one patch because they share "
                        f"the work items declared in {', '.join(hs) or 'one file'}"
                        + (f" ({', '.join(fields)})" if fields else "")
                        + ": each builds only with the others converted too. "
                        f"They are maintained in {len(p.entries)} MAINTAINERS sections.")
        patches.append(p)
    # one subject per patch: two drivers under one fixed prefix get their names
    subs: dict[str, list[Patch]] = {}
    for p in patches:
        subs.setdefault(p.prefix, []).append(p)
    for same in subs.values():
        if len(same) > 1 and len({p.name for p in same}) == len(same):
            for p in same:
                if not p.prefix.endswith(p.name):
                    p.prefix += f": {p.name}"
    return patches


# ------------------------------------------------------------------ output

def _fold(field_: str, addrs: list[str]) -> str:
    return f"{field_}: " + ",\n    ".join(addrs) + "\n" if addrs else ""


def patch_text(p: Patch, n: int, total: int, ident: Ident, fds: dict[str, gitdiff.FileDiff],
               builds: dict[str, dict], notes: dict[str, list[str]] | None = None,
               sites: dict[str, list[dict]] | None = None) -> str:
    files = [fds[f] for f in p.files]
    kept = any("tasklet" in ln.lower() for f in files for ln in f.lines("+"))
    # report.json "notes": choices a reviewer must see (legacy data fields).
    extra = list(dict.fromkeys(n_ for f in p.files for n_ in (notes or {}).get(f, [])))
    msg = message.body(p.name, files, builds, p.shared, kept, extra,
                       [s for f in p.files for s in (sites or {}).get(f, [])])
    head = (f"From: {ident.name_email}\n"
            f"Date: {rfc2822(ident.date + n)}\n"
            f"Subject: [PATCH {n}/{total}] {p.subject}\n"
            + _fold("To", p.to) + _fold("Cc", p.cc))
    rest = (f"\n{msg}\nSigned-off-by: {ident.name_email}\n---\n"
            + (f"No recipients: {p.no_rcpt}.\n\n" if p.no_rcpt else "")
            + gitdiff.diffstat(files) + "\n"
            + "".join(f.text for f in files) + f"-- \n{SIGNATURE}\n\n")
    sha = hashlib.sha1((head + rest).encode(errors="surrogateescape")).hexdigest()
    return f"From {sha} Mon Sep 17 00:00:00 2001\n" + head + rest


def slug(subject: str) -> str:
    s = re.sub(r"[^A-Za-z0-9._]+", "-", subject).strip("-.")
    return s[:52].rstrip("-.")


def recipients(kdir: Path, patches: list[Patch], fds: dict[str, gitdiff.FileDiff],
               cache_file: Path | None, jobs: int) -> None:
    """Fill To/Cc of every patch from get_maintainer.pl, once per patch,
    in parallel; answers are kept in cache_file keyed by the diff and the
    MAINTAINERS text, so that `make series` again is quick."""
    mt = (kdir / "MAINTAINERS").read_bytes() if (kdir / "MAINTAINERS").is_file() else b""
    salt = hashlib.sha1(mt).hexdigest()
    cache: dict[str, list[list[str]]] = {}
    if cache_file and cache_file.is_file():
        try:
            cache = json.loads(cache_file.read_text())
        except ValueError:
            cache = {}
    git = prefix.is_git(kdir)
    script = kdir / "scripts/get_maintainer.pl"
    if not script.is_file():
        why = "KDIR has no scripts/get_maintainer.pl"
        print(f"detasklet: warning: {why}: the patches have no To/Cc", file=sys.stderr)
        for p in patches:
            p.to, p.cc, p.no_rcpt = [], [], why
        return
    if not (kdir / "MAINTAINERS").is_file():
        print("detasklet: warning: KDIR has no MAINTAINERS: get_maintainer.pl finds no "
              "maintainers", file=sys.stderr)

    def one(p: Patch) -> tuple[list[str], list[str], str]:
        diff = "".join(fds[f].text for f in p.files)
        k = hashlib.sha1((salt + diff).encode(errors="surrogateescape")).hexdigest()
        if k in cache:
            return cache[k][0], cache[k][1], ""
        try:
            to, cc = maintainers.recipients(kdir, diff, git)
        except (RuntimeError, OSError, subprocess.SubprocessError) as e:
            return [], [], str(e).splitlines()[0][:200] if str(e) else "get_maintainer.pl failed"
        cache[k] = [to, cc]
        return to, cc, ""

    with ThreadPoolExecutor(max_workers=max(jobs, 1)) as ex:
        for p, (to, cc, err) in zip(patches, ex.map(one, patches)):
            p.to, p.cc = to, cc
            if err:
                p.no_rcpt = err
                print(f"detasklet: warning: {p.subject}: {err}: no To/Cc", file=sys.stderr)
            elif not to and not cc:
                p.no_rcpt = "get_maintainer.pl named nobody for these files"
    if cache_file:
        outdir.write_file(cache_file.parent, cache_file.name, json.dumps(cache, indent=0, sort_keys=True) + "\n")


def tool_version() -> str:
    here = Path(__file__).resolve().parents[2]
    r = subprocess.run(["git", "-C", str(here), "describe", "--always", "--dirty"],
                       capture_output=True, text=True)
    return r.stdout.strip() or "unknown"


def cover_text(patches: list[Patch], total: int, ident: Ident, rep: dict,
               fds: dict[str, gitdiff.FileDiff], kdir: Path, out_name: str,
               builds: dict[str, dict]) -> str:
    files = rep.get("files", [])
    nconv = len(fds)
    left = [f for f in files if f.get("status") != "converted"]
    to = list(dict.fromkeys(a for p in patches for a in p.to))
    cc = list(dict.fromkeys(a for p in patches for a in p.cc))
    every = [fds[f] for p in patches for f in p.files]
    keys = message.apis(every)
    L: list[str] = [
        message.para("Tasklets are deprecated, and BH workqueues (WQ_BH, since "
                     "v6.9) run their work items from the same softirqs, on the CPU "
                     "that queued them. This series moves the tasklet users of "
                     f"Linux {rep.get('kernel', '')} that can be converted "
                     "mechanically to BH workqueues, one patch per driver; each "
                     "patch applies and builds on its own, in any order."),
        "",
        message.para(f"Totals: {len(files) or nconv} files use the tasklet API; {nconv} "
                     f"are converted in {total} patches; {len(left)} are left "
                     "unconverted."),
        "",
        "The mapping:", "",
        *[f"  {row}" for key, _, row, _ in message.MAPPING if key in keys],
        "", "Where the behaviour differs:", "",
        *[message.bullet(note) for key, _, _, note in message.MAPPING
          if key in keys and note],
    ]
    cross = [(n, p) for n, p in enumerate(patches, 1) if p.shared]
    if cross:
        L += ["", "Patches that cross MAINTAINERS sections (the files share a work item):", ""]
        L += [message.bullet(f"{n}/{total} {p.prefix}: {len(p.files)} files, "
                             f"{len(p.entries)} sections") for n, p in cross]
    built = [p for p in fds if p in builds and builds[p].get("converted") == "ok"]
    L += ["", message.para(
        f"Compile-tested: {len(built)} of the {nconv} changed files built by make "
        "compile-test." if builds else
        "Not compile-tested by the tool: make compile-test has not recorded builds.")]
    if left:
        by: dict[str, list[str]] = {}
        for f in left:
            why = re.sub(r"\b(at )?line \d+", "", str(f.get("reason", ""))).strip()
            why = re.sub(r"\s+", " ", why)
            why = re.sub(r"with \S+, which did not convert", "with a file that did not convert",
                         why)
            by.setdefault(why or f.get("status", ""), []).append(f["path"])
        L += ["", f"Left unconverted ({len(left)} files), and why:", ""]
        for why, ps in sorted(by.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            L += [message.bullet(f"{why} ({len(ps)}): {', '.join(sorted(ps))}")]
    L += ["", "To reproduce (detasklet " + tool_version() + "):", "",
          f"  make convert KDIR={kdir} OUT={out_name}",
          f"  make series KDIR={kdir} OUT={out_name}"
          + (f" BASE={ident.base}" if ident.base else ""),
          f"  make send-check KDIR={kdir} OUT={out_name}", ""]
    short: dict[str, list[str]] = {ident.name_email.split(" <")[0]: [p.subject for p in patches]}
    for who, subs in short.items():
        L += [f"{who} ({len(subs)}):"] + [f"  {s}" for s in subs] + [""]
    stat = gitdiff.diffstat(sorted(every, key=lambda f: f.path))
    L += [stat.splitlines()[-1] if stat else ""]
    if ident.base:
        L += ["", f"base-commit: {ident.base}"]
    head = (f"From: {ident.name_email}\nDate: {rfc2822(ident.date)}\n"
            f"Subject: [PATCH 0/{total}] Convert tasklet users to BH workqueues\n"
            + _fold("To", to) + _fold("Cc", cc))
    rest = "\n" + "\n".join(L) + f"\n-- \n{SIGNATURE}\n\n"
    sha = hashlib.sha1((head + rest).encode(errors="surrogateescape")).hexdigest()
    return f"From {sha} Mon Sep 17 00:00:00 2001\n" + head + rest


def report_section(patches: list[Patch]) -> list[str]:
    src = {s: sum(p.source == s for p in patches) for s in ("history", "table", "path")}
    n = len(patches)
    lines = ["## Series", "",
             f"{n} patches in `series/`, one per driver. Subject prefixes: "
             f"{src['history']} from git history, {src['table']} from MAINTAINERS and the "
             f"subsystem table, {src['path']} from the bare path "
             f"({100 * (src['history'] + src['table']) / max(n, 1):.0f}% with a subsystem "
             "prefix); the driver name of "
             f"{sum(p.found for p in patches)} ({100 * sum(p.found for p in patches) / max(n, 1):.0f}%) "
             "is named by a MAINTAINERS section of its files or by their paths.", ""]
    cross = [p for p in patches if p.shared]
    if cross:
        lines += ["Patches that cross MAINTAINERS sections, and why:", ""]
        for p in cross:
            lines.append(f"- `{p.subject}` ({len(p.files)} files; sections: "
                         f"{', '.join(p.entries)}): {p.shared}")
        lines.append("")
    notfound = [p for p in patches if not p.found]
    if notfound:
        lines += ["Subjects whose driver name is not in MAINTAINERS or the paths:", ""]
        lines += [f"- `{p.subject}`: {', '.join(p.files)}" for p in notfound]
        lines.append("")
    fallback = [p for p in patches if p.source == "path"]
    if fallback:
        lines += ["Subjects whose prefix is only the path (no table entry):", ""]
        lines += [f"- `{p.subject}`: {', '.join(p.files)}" for p in fallback]
    return lines


def add_report_section(out: Path, section: list[str]) -> None:
    """Put section into report.md, replacing an older '## Series' one."""
    md = out / "report.md"
    text = md.read_text() if md.is_file() else ""
    head, sep, rest = text.partition("\n## Series\n")
    if sep:
        nxt = rest.find("\n## ")
        text = head.rstrip("\n") + "\n" + ("\n" + rest[nxt + 1:] if nxt >= 0 else "")
    md.write_text(text.rstrip("\n") + "\n\n" + "\n".join(section).rstrip("\n") + "\n")


def build(kdir: Path, out: Path, ident: Ident, jobs: int = 2, out_name: str = "",
          log=lambda m: None) -> list[Patch]:
    """series/ (and the report.md section) from OUT and the pristine KDIR."""
    fds, old, groups, rep = load(kdir, out)
    builds = {f["path"]: f["build"] for f in rep.get("files", []) if f.get("build")}
    notes = {f["path"]: f["notes"] for f in rep.get("files", []) if f.get("notes")}
    sites = {f["path"]: f["sites"] for f in rep.get("files", []) if f.get("sites")}
    patches = plan(kdir, fds, old, groups)
    log(f"series: {len(fds)} files in {len(patches)} patches; asking get_maintainer.pl")
    recipients(kdir, patches, fds, out / ".get_maintainer.json", jobs)
    sdir = out / "series"
    if sdir.is_dir():
        for f in sdir.glob("*.patch"):
            f.unlink()
    sdir.mkdir(parents=True, exist_ok=True)
    total = len(patches)
    for n, p in enumerate(patches, 1):
        (sdir / f"{n:04d}-{slug(p.subject)}.patch").write_text(
            patch_text(p, n, total, ident, fds, builds, notes, sites), errors="surrogateescape")
    if patches:   # nothing converted (an already converted tree): no series
        (sdir / "0000-cover-letter.patch").write_text(
            cover_text(patches, total, ident, rep, fds, kdir, out_name or str(out), builds),
            errors="surrogateescape")
    add_report_section(out, report_section(patches))
    return patches

