# SPDX-License-Identifier: GPL-2.0-only
"""series/ of an external module (make convert M=): one patch, to the
module's own maintainer.

A module is one driver: every converted file of it is one patch, in
series/<module>/, written by git format-patch (series.gitmail) as a
single patch (no cover letter). Its subject prefix is the one the module's git log uses
most for these files, else the module's name; To: is TO=, else the
author of most commits of these files (detasklet.module.maintainer).
MAINTAINERS and get_maintainer.pl are not asked: the module is not in the
kernel tree.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
from collections import Counter
from pathlib import Path

from .. import module as module_, proc
from ..out import files as outfiles
from . import gitmail, mbox
from .evidence import Evidence
from .identity import Ident, head_if_clean, identity
from .plan import Patch
from .trees import Tree
from .write import load, write_identity

log = logging.getLogger("detasklet")


def prefix_of(mod: module_.Module, files: list[str]) -> tuple[str, str]:
    """(prefix, source): the "prefix:" most subjects of the module's git
    log for files have, else the module's name."""
    if mod.git:
        r = proc.run(["git", "-C", str(mod.root), "log", "--no-merges", "--format=%s",
                      "--", *files])
        seen = Counter(m.group(1) for ln in r.stdout.splitlines()
                       if (m := re.match(r"([\w.+/-]+(?:: [\w.+/-]+)*): \S", ln)))
        if seen:
            return max(seen.items(), key=lambda kv: (kv[1], kv[0]))[0], "history"
    return mod.name, "path"


def ident_of(mod: module_.Module, who: Ident) -> Ident:
    """who (From: as for a kernel tree) with the module's Date: when
    DETASKLET_DATE/SOURCE_DATE_EPOCH give none (module.date), and its HEAD
    as the base when clean."""
    env = any(os.environ.get(v) for v in ("DETASKLET_DATE", "SOURCE_DATE_EPOCH"))
    date = who.date if env else module_.date(mod)
    base = head_if_clean(mod.root) if mod.git else ""
    return Ident(who.name_email, date, base, who.source)


def build(mod: module_.Module, kdir: Path, out: Path, ident: Ident | None = None) -> list[Patch]:
    """series/ (and the report.md section) of a module OUT; ident: who
    signs and when (default: ident_of())."""
    fds, old, _groups, rep = load(mod.root, out, fresh=True)
    sdir = out / "series"
    if sdir.is_dir():
        shutil.rmtree(sdir)     # OUT is the tool's (out.place): series/ is ours
    sdir.mkdir(parents=True)
    if not fds:
        outfiles.add_section(out, ["## Series", "", "No file of the module converted: "
                                   "no patch.", ""])
        return []
    files = sorted(fds)
    pfx, source = prefix_of(mod, files)
    p = Patch(files, prefix=pfx, source=source, name=mod.name, named=True,
              tree=Tree(mod.name, via="the module's own maintainer"))
    p.to, p.no_rcpt = module_.maintainer(mod, files)
    by = {f["path"]: f for f in rep["files"]}
    if rep.get("target") == "thread" and all(by.get(f, {}).get("target") == "thread"
                                            for f in files):
        p.thread = rep.get("thread_queues", {})
        p.guards = [g for f in files for g in by[f].get("guards", [])]
    elif rep.get("target") == "thread":
        p.kept_bh = next((by[f].get("target_why", "") for f in files
                          if by.get(f, {}).get("target_why")), "")
    ident = ident or ident_of(mod, identity(kdir))
    notes = {f: by[f]["notes"] for f in files if by.get(f, {}).get("notes")}
    sites = {f: by[f]["sites"] for f in files if by.get(f, {}).get("sites")}
    keys = {f: by[f]["keys"] for f in files if "keys" in by.get(f, {})}
    mapping = {f: by[f]["mapping"] for f in files if "mapping" in by.get(f, {})}
    commented = {f for f in files if by.get(f, {}).get("tasklet_comments")}
    mail = mbox.patch_mail(p, ident, fds, Evidence(outfiles.builds(rep)), notes, sites, keys,
                           mapping, commented)
    text = gitmail.mails(mod.root, ident, old, [[mail]], [""])[0][1][0]
    text = text.replace("Subject: [PATCH 1/1] ", "Subject: [PATCH] ", 1)
    d = sdir / mod.name
    d.mkdir()
    (d / f"0001-{mbox.slug(p.subject)}.patch").write_text(text, errors="surrogateescape")
    left = [f for f in rep["files"] if f.get("status") != "converted"]
    (sdir / "README").write_text(
        f"Tasklet to BH workqueue conversion of the external module {mod.name}\n"
        f"against Linux {rep.get('kernel', '')}: one patch, {mod.name}/, to "
        + (", ".join(p.to) if p.to else f"nobody ({p.no_rcpt})") + ".\n"
        + (f"{len(left)} files are left unconverted: report.md says why.\n" if left else ""))
    write_identity(out, ident)
    outfiles.add_section(out, [
        "## Series", "", f"1 patch for the module {mod.name}, `{p.subject}`, to "
        + (", ".join(p.to) if p.to else f"nobody: {p.no_rcpt}") + f" (prefix from "
        f"{'its git log' if source == 'history' else 'its name'}).", ""])
    return [p]
