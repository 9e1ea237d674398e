"""make series: OUT/series/ from OUT and the pristine KDIR, without spatch.

load() reads all.patch, groups.json and report.json back (out.files) and
the pristine texts of the changed files; an all.patch that is not in the
canonical form (git headers, laid out by ctext.layout) is first rewritten
in it, so that the series and all.patch agree. build() plans the patches
(series.plan), asks get_maintainer.pl (series.maintainers), writes one
mail per patch and the cover letter (series.mbox), and the "## Series"
section of report.md. Everything is a function of the inputs, the
identity, the date and the base: a second run writes the same bytes.
"""

from __future__ import annotations

import logging
import subprocess
from pathlib import Path

from ..ctext import layout
from ..ctext.gitdiff import FileDiff, apply, file_diff, parse
from ..errors import InputError, PatchError
from ..kdir import kernel_version
from ..out import files as outfiles, place
from ..out.staging import locked, write_file
from . import maintainers, mbox, message
from .identity import Ident, identity
from .plan import Patch, plan

log = logging.getLogger("detasklet")


def load(kdir: Path, out: Path) -> tuple[dict[str, FileDiff], dict[str, str],
                                         list[list[str]], dict]:
    """(diffs by path, pristine texts, groups, report.json) of an OUT,
    checked: a damaged or inconsistent OUT is an InputError."""
    rep = outfiles.load_report(out)
    text = outfiles.load_patch(out)
    try:
        fds = {fd.path: fd for fd in parse(text)}
    except PatchError as e:
        raise InputError(f"{out}/all.patch is damaged ({e}): run make convert again") from None
    outfiles.check_consistent(out, rep, list(fds))
    old = {}
    for p in fds:
        try:
            old[p] = (kdir / p).read_bytes().decode("utf-8", errors="surrogateescape")
        except OSError as e:
            raise InputError(f"cannot read {p} of KDIR ({e.strerror}): is KDIR the tree "
                             "all.patch was made from?") from None
    try:
        canon = {p: file_diff(p, old[p], layout.tidy(old[p], apply(old[p], fd)))
                 for p, fd in sorted(fds.items())}
    except PatchError as e:
        raise InputError(f"{out}/all.patch does not apply to KDIR {kdir} ({e}): is KDIR "
                         "the tree it was made from?") from None
    if "".join(canon.values()) != text:
        write_file(out, "all.patch", "".join(canon.values()))
    fds = {p: parse(t)[0] for p, t in canon.items() if t}
    groups = [[p for p in g if p in fds] for g in outfiles.load_groups(out)]
    groups = [g for g in groups if g]
    seen = {p for g in groups for p in g}
    groups += [[p] for p in sorted(fds) if p not in seen]
    return fds, old, groups, rep


def report_section(patches: list[Patch]) -> list[str]:
    src = {s: sum(p.source == s for p in patches) for s in ("history", "table", "path")}
    n = len(patches)
    named = sum(p.named for p in patches)
    lines = ["## Series", "",
             f"{n} patches in `series/`, one per driver. Subject prefixes: "
             f"{src['history']} from git history, {src['table']} from MAINTAINERS and the "
             f"subsystem table, {src['path']} from the bare path "
             f"({100 * (src['history'] + src['table']) / max(n, 1):.0f}% with a subsystem "
             f"prefix); the driver name of {named} ({100 * named / max(n, 1):.0f}%) "
             "is named by a MAINTAINERS section of its files or by their paths.", ""]
    cross = [p for p in patches if p.shared]
    if cross:
        lines += ["Patches that cross MAINTAINERS sections, and why:", ""]
        for p in cross:
            lines.append(f"- `{p.subject}` ({len(p.files)} files; sections: "
                         f"{', '.join(p.entries)}): {p.shared}")
        lines.append("")
    unnamed = [p for p in patches if not p.named]
    if unnamed:
        lines += ["Subjects whose driver name is not in MAINTAINERS or the paths:", ""]
        lines += [f"- `{p.subject}`: {', '.join(p.files)}" for p in unnamed]
        lines.append("")
    fallback = [p for p in patches if p.source == "path"]
    if fallback:
        lines += ["Subjects whose prefix is only the path (no table entry):", ""]
        lines += [f"- `{p.subject}`: {', '.join(p.files)}" for p in fallback]
    return lines


def tool_version() -> str:
    """This checkout's git describe, for the cover letter."""
    here = Path(__file__).resolve().parents[3]
    r = subprocess.run(["git", "-C", str(here), "describe", "--always", "--dirty"],
                       capture_output=True, text=True)
    return r.stdout.strip() or "unknown"


def build(kdir: Path, out: Path, ident: Ident, jobs: int = 2, out_name: str = "") -> list[Patch]:
    """series/ (and the report.md section) from OUT and the pristine KDIR."""
    fds, old, groups, rep = load(kdir, out)
    builds = outfiles.builds(rep)
    notes = {f["path"]: f["notes"] for f in rep["files"] if f.get("notes")}
    sites = {f["path"]: f["sites"] for f in rep["files"] if f.get("sites")}
    patches = plan(kdir, fds, old, groups)
    log.info(f"series: {len(fds)} files in {len(patches)} patches; asking get_maintainer.pl")
    maintainers.address(kdir, patches, fds, out / ".get_maintainer.json", jobs)
    sdir = out / "series"
    if sdir.is_dir():
        for f in sdir.glob("*.patch"):
            f.unlink()
    sdir.mkdir(parents=True, exist_ok=True)
    total = len(patches)
    for n, p in enumerate(patches, 1):
        (sdir / f"{n:04d}-{mbox.slug(p.subject)}.patch").write_text(
            mbox.patch_file(p, n, total, ident, fds, builds, notes, sites),
            errors="surrogateescape")
    if patches:   # nothing converted (an already converted tree): no series
        name = out_name or str(out)
        reproduce = [f"To reproduce (detasklet {tool_version()}):", "",
                     f"  make convert KDIR={kdir} OUT={name}",
                     f"  make series KDIR={kdir} OUT={name}"
                     + (f" BASE={ident.base}" if ident.base else ""),
                     f"  make send-check KDIR={kdir} OUT={name}"]
        lines = message.cover(patches, rep, fds, builds, reproduce,
                              ident.name_email.split(" <")[0], ident.base)
        (sdir / "0000-cover-letter.patch").write_text(mbox.cover_file(patches, ident, lines),
                                                      errors="surrogateescape")
    outfiles.add_section(out, report_section(patches))
    return patches


def main(kdir_arg: str, out_arg: str, from_: str | None, base: str | None, jobs: int) -> int:
    """make series: series/ again in an existing OUT."""
    kdir = Path(kdir_arg).resolve()
    kernel_version(kdir)
    out = place.existing(kdir, out_arg)
    ident = identity(kdir, from_, base)
    with locked(out):
        patches = build(kdir, out, ident, jobs, str(out))
    print(f"series: {len(patches)} patches and a cover letter in {out / 'series'}/")
    return 0
