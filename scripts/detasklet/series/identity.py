# SPDX-License-Identifier: GPL-2.0-only
"""Who signs the patches, when, and on which base: never the clock.

From: DETASKLET_FROM / --from, else git config user.name/email, else
FALLBACK_FROM (with a warning). Date: DETASKLET_DATE (epoch seconds), else
SOURCE_DATE_EPOCH, else the committer date of KDIR's HEAD when it is a git
checkout, else the mtime of KDIR/Makefile (the release date of an unpacked
tree), so that two runs write the same bytes.
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass
from pathlib import Path

from .. import proc
from ..errors import InputError, ToolError
from .prefix import is_git

log = logging.getLogger("detasklet")

FALLBACK_FROM = "detasklet <detasklet@localhost.invalid>"


@dataclass
class Ident:
    name_email: str
    date: int            # seconds since the epoch, UTC
    base: str = ""       # base-commit, if known
    source: str = ""     # where the identity came from


def check_from(who: str, where: str) -> str:
    """who as one 'Name <user@host>', else an InputError: it goes into the
    From: and Signed-off-by: of every mail, so a control character (a
    newline would add a header) or a bare name is refused."""
    who = who.strip()           # a trailing newline of $(git config ...) is harmless
    if any(ord(c) < 32 or ord(c) == 127 for c in who):
        raise InputError(f"{where} holds a control character (a newline would add a "
                         "header to every mail): give one line, Name <user@example.org>")
    m = re.fullmatch(r"([^<>@,;\"]*[^<>@,;\"\s])\s*<([^<>@\s,;\"]+@[^<>@\s,;\"]+)>", who)
    if not m:
        raise InputError(f"{where}={who!r} is not Name <user@example.org>: the mails' From: "
                         "and Signed-off-by: need a name and an address")
    return f"{m.group(1).strip()} <{m.group(2)}>"


def check_base(kdir: Path, base: str) -> str:
    """BASE as the full id of a commit of KDIR's repository, else an
    InputError (base-commit: must name a commit the reader can fetch)."""
    if not is_git(kdir):
        raise InputError(f"BASE={base!r}: KDIR {kdir} is not a git checkout, so it has no "
                         "commits to base the series on; leave BASE= empty")
    if base.startswith("-") or any(ord(c) < 33 for c in base):
        raise InputError(f"BASE={base!r} is not a commit")
    r = proc.run(["git", "-C", str(kdir), "rev-parse", "--verify", "-q", f"{base}^{{commit}}"])
    if r.rc or not re.fullmatch(r"[0-9a-f]{40,64}", r.stdout.strip()):
        raise InputError(f"BASE={base!r} is not a commit of KDIR's repository {kdir}")
    return r.stdout.strip()


def identity(kdir: Path, from_: str | None = None, base: str | None = None) -> Ident:
    """Who signs, when, on which base; a bad FROM or BASE is an InputError
    (checked before any work)."""
    who = from_ or os.environ.get("DETASKLET_FROM", "")
    src = "DETASKLET_FROM"
    if who:
        make = os.environ.get("DETASKLET_MAKE") == "1"      # make FROM= sets it
        who = check_from(who, "FROM" if from_ or make else "DETASKLET_FROM")
    if base:
        base = check_base(kdir, base)
    if not who:
        def cfg(k: str) -> str:
            try:
                r = proc.run(["git", "config", k])
            except ToolError:       # no git: no identity from it
                return ""
            return r.stdout.strip() if r.rc == 0 else ""
        name, email = cfg("user.name"), cfg("user.email")
        who, src = (f"{name} <{email}>", "git config") if name and email else ("", "")
        if who:
            who = check_from(who, "git config user.name/user.email")
    if not who:
        who, src = FALLBACK_FROM, "fallback"
        log.warning(f"no identity (set DETASKLET_FROM= or git config user.name and "
                    f"user.email); using {FALLBACK_FROM}")
    date = identity_date(kdir, base)
    if not base and is_git(kdir):
        base = head_if_clean(kdir)
    return Ident(who, date, base or "", src)


def head_if_clean(kdir: Path) -> str:
    """KDIR's HEAD, if the work tree holds what HEAD holds (the patches are
    made from the work tree): else '' and a warning, as a base-commit: of
    HEAD would then be false. The index is not written (no optional
    locks)."""
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0"}
    head = proc.run(["git", "-C", str(kdir), "rev-parse", "--verify", "-q", "HEAD"],
                    env=env).stdout.strip()
    if not head:
        return ""
    r = proc.run(["git", "-C", str(kdir), "status", "--porcelain", "--untracked-files=no"],
                 env=env)
    if r.rc or r.stdout.strip():
        log.warning(f"{kdir} has changes not committed: the series get no base-commit: "
                    "(commit them, or say BASE=)")
        return ""
    return head


def identity_date(kdir: Path, base: str | None = None) -> int:
    """The date of the patches; a DETASKLET_DATE or SOURCE_DATE_EPOCH that
    is not a whole number is an InputError."""
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
    if is_git(kdir):
        r = proc.run(["git", "-C", str(kdir), "log", "-1", "--format=%ct", base or "HEAD"])
        return int(r.stdout.strip() or 0) if r.stdout.strip().isdigit() else 0
    return int((kdir / "Makefile").stat().st_mtime)
