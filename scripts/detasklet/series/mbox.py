# SPDX-License-Identifier: GPL-2.0-only
"""The files of series/: git format-patch mails, byte for byte reproducible.

Each file is one mail: the `From <sha1>` line (the SHA-1 of the mail, as
the patch has no commit), From:, Date: (the identity's date, plus n
seconds for patch n so that mail clients keep the order), Subject:, To:
and Cc:, the message, Signed-off-by:, the diffstat and the diffs.
"""

from __future__ import annotations

import hashlib
import re
import time

from ..ctext.gitdiff import FileDiff, diffstat
from . import message
from .identity import Ident
from .plan import Patch

SIGNATURE = "2.39.5"


def rfc2822(ts: int) -> str:
    t = time.gmtime(ts)
    return (f"{time.strftime('%a', t)}, {t.tm_mday} {time.strftime('%b %Y %H:%M:%S', t)} +0000")


def slug(subject: str) -> str:
    s = re.sub(r"[^A-Za-z0-9._]+", "-", subject).strip("-.")
    return s[:52].rstrip("-.")


def _fold(field_: str, addrs: list[str]) -> str:
    return f"{field_}: " + ",\n    ".join(addrs) + "\n" if addrs else ""


def _mail(ident: Ident, date: int, subject: str, to: list[str], cc: list[str],
          rest: str) -> str:
    head = (f"From: {ident.name_email}\nDate: {rfc2822(date)}\nSubject: {subject}\n"
            + _fold("To", to) + _fold("Cc", cc))
    sha = hashlib.sha1((head + rest).encode(errors="surrogateescape")).hexdigest()
    return f"From {sha} Mon Sep 17 00:00:00 2001\n" + head + rest


def tag(tree_tag: str, n: int, total: int) -> str:
    """[PATCH net-next 03/15], numbered as git format-patch does."""
    w = len(str(total))
    return f"[PATCH {tree_tag + ' ' if tree_tag else ''}{n:0{w}d}/{total}]"


def patch_file(p: Patch, n: int, total: int, ident: Ident, fds: dict[str, FileDiff],
               builds: dict[str, dict], notes: dict[str, list[str]],
               sites: dict[str, list[dict]] | None = None,
               keys: dict[str, list[str]] | None = None) -> str:
    files = p.file_diffs(fds)
    kept = any("tasklet" in ln.lower() for f in files for ln in f.lines("+"))
    # report.json "notes" (legacy data fields) and "sites" (each verdict).
    extra = list(dict.fromkeys(n_ for f in p.files for n_ in notes.get(f, [])))
    if p.prep:
        msg = message.prep_body(p.prep, files, builds)
    elif p.driver_prep:
        msg = message.driver_prep_body(p.driver_prep, files, builds)
    elif p.core:
        msg = message.core_body()
    elif p.unused_only:
        msg = message.unused_body(files, builds)
    else:
        msg = message.body(p.name, files, builds, p.shared, kept, extra,
                           [s for f in p.files for s in (sites or {}).get(f, [])], p.queues,
                           {f: k for f, k in (keys or {}).items() if f in p.files},
                           p.thread, p.guards, p.kept_bh)
    rest = (f"\n{msg}\nSigned-off-by: {ident.name_email}\n---\n"
            + (f"No recipients: {p.no_rcpt}.\n\n" if p.no_rcpt else "")
            + diffstat(files) + "\n"
            + "".join(f.text for f in files) + f"-- \n{SIGNATURE}\n\n")
    return _mail(ident, ident.date + n, f"{tag(p.tree.tag, n, total)} {p.subject}",
                 p.to, p.cc, rest)


def cover_file(patches: list[Patch], ident: Ident, lines: list[str], title: str) -> str:
    to = list(dict.fromkeys(a for p in patches for a in p.to))
    cc = list(dict.fromkeys(a for p in patches for a in p.cc))
    rest = "\n" + "\n".join(lines) + f"\n-- \n{SIGNATURE}\n\n"
    t = patches[0].tree.tag if patches else ""
    return _mail(ident, ident.date, f"{tag(t, 0, len(patches))} {title}", to, cc, rest)
