# SPDX-License-Identifier: GPL-2.0-only
"""The files of series/: what each mail says, and the cover letter.

patch_mail() gives a patch's subject, message (ending in Signed-off-by:),
diffs, To/Cc and note; series.gitmail makes the commits and has git
format-patch write the mails. cover_file() writes the cover letter in the
shape git format-patch --cover-letter gives it: the From line holds the
series' last commit, Date: is the identity's, the signature git's version.
"""

from __future__ import annotations

import re
import time
from email.header import Header

from ..ctext.gitdiff import FileDiff
from . import message
from .evidence import Evidence
from .gitmail import Mail, fold
from .identity import Ident
from .plan import Patch


def rfc2822(ts: int) -> str:
    t = time.gmtime(ts)
    return (f"{time.strftime('%a', t)}, {t.tm_mday} {time.strftime('%b %Y %H:%M:%S', t)} +0000")


def slug(subject: str) -> str:
    s = re.sub(r"[^A-Za-z0-9._]+", "-", subject).strip("-.")
    return s[:52].rstrip("-.")


def tag(tree_tag: str, n: int, total: int) -> str:
    """[PATCH net-next 03/15], numbered as git format-patch does."""
    w = len(str(total))
    return f"[PATCH {tree_tag + ' ' if tree_tag else ''}{n:0{w}d}/{total}]"


def patch_mail(p: Patch, ident: Ident, fds: dict[str, FileDiff],
               ev: Evidence, notes: dict[str, list[str]],
               sites: dict[str, list[dict]] | None = None,
               keys: dict[str, list[str]] | None = None,
               mapping: dict[str, dict[str, str]] | None = None,
               commented: set[str] | None = None) -> Mail:
    files = p.file_diffs(fds)
    kept = any("tasklet" in ln.lower() for f in files for ln in f.lines("+"))
    # report.json "notes" (legacy data fields) and "sites" (each verdict).
    extra = list(dict.fromkeys(n_ for f in p.files for n_ in notes.get(f, [])))
    if p.prep:
        msg = message.prep_body(p.prep, files, ev)
    elif p.fix:
        msg = message.fix_body(p.driver_prep)
    elif p.driver_prep:
        msg = message.driver_prep_body(p.driver_prep, files, ev)
    elif p.core:
        msg = message.core_body(p.files)
    elif p.unused_only:
        msg = message.unused_body(files, ev)
    else:
        msg = message.body(p.name, files, ev, p.shared, kept, extra,
                           [s for f in p.files for s in (sites or {}).get(f, [])], p.queues,
                           {f: k for f, k in (keys or {}).items() if f in p.files},
                           p.thread, p.guards, p.kept_bh,
                           {k: r for f in p.files for k, r in (mapping or {}).get(f, {}).items()},
                           bool(set(p.files) & (commented or set())), p.queues_by)
    # a Fixes: tag ends the message: the trailers are one block
    sep = "" if msg.rsplit("\n", 2)[-2].startswith("Fixes: ") else "\n"
    return Mail(p.subject, f"{msg}{sep}Signed-off-by: {ident.name_email}\n", files, p.to, p.cc,
                f"No recipients: {p.no_rcpt}." if p.no_rcpt else "", p.core)


def cover_file(patches: list[Patch], ident: Ident, lines: list[str], title: str,
               tip: str, signature: str, tree_tag: str | None = None) -> str:
    """The cover letter; tip: the id of the series' last commit; tree_tag:
    the subject tag of the series' tree where it is not its patches' (a
    fixes series: net, for patches of net-next)."""
    to = list(dict.fromkeys(a for p in patches for a in p.to))
    cc = list(dict.fromkeys(a for p in patches for a in p.cc))
    t = tree_tag if tree_tag is not None else patches[0].tree.tag if patches else ""
    body = "\n".join(lines)
    head = [f"From {tip} Mon Sep 17 00:00:00 2001", f"From: {_address(ident.name_email)}",
            f"Date: {rfc2822(ident.date)}", f"Subject: {tag(t, 0, len(patches))} {title}",
            *fold("To", to), *fold("Cc", cc)]
    if not body.isascii():      # as git format-patch marks a non-ASCII message
        head += ["MIME-Version: 1.0", "Content-Type: text/plain; charset=UTF-8",
                 "Content-Transfer-Encoding: 8bit"]
    return "\n".join(head) + "\n\n" + body + f"\n-- \n{signature}\n\n"


def _address(name_email: str) -> str:
    """'Name <addr>' with a non-ASCII name encoded (RFC 2047), as git does."""
    name, sep, addr = name_email.rpartition(" <")
    if not sep or name.isascii():
        return name_email
    return f"{Header(name, 'utf-8').encode()} <{addr}"
