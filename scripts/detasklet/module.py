# SPDX-License-Identifier: GPL-2.0-only
"""M=: an external module, as kbuild takes one (make -C KDIR M=dir).

The module's files are read where they are and never written; KDIR gives
the kernel: its version, whether it has BH workqueues, its headers for
compile-test. Paths in the patches are relative to the module's root.
MAINTAINERS is not asked: the patch goes to the module's own maintainer,
TO=, else the author of most of the module's commits when it is a git
checkout. A decision folder of the module's own (DECISIONS=, default
<module>/detasklet/) is read beside the tool's decisions/.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from . import proc
from .errors import InputError
from .out import place

log = logging.getLogger("detasklet")

OBJ_M_RE = re.compile(r"^[ \t]*obj-(?:m|\$\([A-Z0-9_]+\))[ \t]*[:+]?=[ \t]*([\w-]+)\.o\b", re.M)


@dataclass
class Module:
    root: Path                 # the module's folder (M=), never written
    name: str                  # its first obj-m, else its dkms.conf name, else the folder's
    decisions: Path | None     # its decision folder, when there is one
    to: list[str] = field(default_factory=list)     # TO=, one address each
    git: bool = False          # a git checkout: its log names the maintainer

    def decisions_prefix(self) -> str:
        """How a decision's source names its folder: module-relative
        (detasklet/), else by the folder's own name."""
        d = self.decisions
        if d is None:
            return ""
        return (os.path.relpath(d, self.root) if place.inside(d, self.root) else d.name) + "/"

    def record(self, kdir: Path) -> dict:
        """report.json "module": what compile-test and series read back."""
        return {"root": str(self.root), "name": self.name, "kdir": str(kdir),
                "decisions": str(self.decisions) if self.decisions else "",
                "to": self.to}


def kbuild_text(root: Path) -> str:
    """The module's Kbuild, else its Makefile ("" when neither)."""
    for n in ("Kbuild", "Makefile"):
        if (root / n).is_file():
            return (root / n).read_text(errors="replace")
    return ""


def name_of(root: Path) -> str:
    """Its first obj-m, else a DKMS package's PACKAGE_NAME, else the folder's name."""
    m = OBJ_M_RE.search(kbuild_text(root))
    if m:
        return m.group(1)
    conf = root / "dkms.conf"
    d = re.search(r'^PACKAGE_NAME="?([\w.+-]+)', conf.read_text(errors="replace"), re.M) \
        if conf.is_file() else None
    return d.group(1) if d else root.name


def is_git(root: Path) -> bool:
    r = proc.run(["git", "-C", str(root), "rev-parse", "--show-toplevel"])
    return r.rc == 0 and bool(r.stdout.strip())


def check(m_arg: str, kdir: Path, decisions_arg: str = "", to: str = "") -> Module:
    """M= (and DECISIONS=, TO=) checked before any work: a folder with a
    Kbuild or Makefile and a .c file; one line (InputError) otherwise."""
    root = Path(m_arg).resolve()
    if not root.is_dir():
        raise InputError(f"M={m_arg}: no such folder")
    if not kbuild_text(root):
        raise InputError(f"M={m_arg}: no Kbuild or Makefile: not an external module folder")
    if not any(root.rglob("*.c")):
        raise InputError(f"M={m_arg}: no .c file")
    if root == kdir or place.inside(kdir, root):
        raise InputError(f"M={m_arg} holds KDIR {kdir}: name the module's own folder")
    dec = Path(decisions_arg).resolve() if decisions_arg else root / "detasklet"
    if decisions_arg and not dec.is_dir():
        raise InputError(f"DECISIONS={decisions_arg}: no such folder")
    addrs = [a.strip() for a in to.split(",") if a.strip()]
    bad = [a for a in addrs if not re.fullmatch(r"[^<>,]*<[^<>@\s]+@[^<>\s]+>|[^<>@\s]+@[^<>\s]+", a)]
    if bad:
        raise InputError(f"TO: {bad[0]!r} is not an address (\"Name <mail>\", comma-separated)")
    return Module(root, name_of(root), dec if dec.is_dir() else None, addrs, is_git(root))


def check_out(out: Path, module: Module) -> None:
    """OUT is neither inside the module nor holds it (the module is never written)."""
    if place.inside(out, module.root):
        raise InputError(f"OUT {out} is inside M={module.root}: the module is never written")
    if place.inside(module.root, out):
        raise InputError(f"OUT {out} holds M={module.root}: replacing it would delete the module")


def maintainer(module: Module, files: list[str]) -> tuple[list[str], str]:
    """(To, why none): TO=, else the author of most commits that touched
    files in the module's git log."""
    if module.to:
        return module.to, ""
    if not module.git:
        return [], "not a git checkout and no TO= given"
    r = proc.run(["git", "-C", str(module.root), "log", "--no-merges",
                  "--format=%aN <%aE>", "--", *files])
    who = Counter(ln for ln in r.stdout.splitlines() if ln.strip())
    if not who:
        return [], "the module's git log names no author of these files"
    top = max(who.items(), key=lambda kv: (kv[1], kv[0]))
    return [top[0]], ""


def date(module: Module) -> int:
    """The patches' date when DETASKLET_DATE/SOURCE_DATE_EPOCH say none:
    the module's HEAD commit, else its newest source file."""
    if module.git:
        r = proc.run(["git", "-C", str(module.root), "log", "-1", "--format=%ct"])
        if r.stdout.strip().isdigit():
            return int(r.stdout.strip())
    times = [p.stat().st_mtime for p in module.root.rglob("*")
             if p.suffix in (".c", ".h") or p.name in ("Kbuild", "Makefile")]
    return int(max(times)) if times else 0


def sources(root: Path) -> list[str]:
    """Every .c/.h of the module, root-relative (for compile-test)."""
    return sorted(os.path.relpath(p, root) for p in root.rglob("*")
                  if p.suffix in (".c", ".h") and p.is_file())


def refuse_module_out(out_arg: str, what: str) -> None:
    """An OUT of make convert M= is refused, in one line, by the commands
    that read a kernel tree's OUT (what: the command)."""
    rj = Path(out_arg) / "report.json"
    try:
        rec = json.loads(rj.read_text()).get("module") if rj.is_file() else None
    except (OSError, ValueError, AttributeError):
        return                  # the command's own checks say what is wrong
    if isinstance(rec, dict):
        raise InputError(f"OUT {out_arg} was made with M={rec.get('root', '?')}: {what} "
                         "takes a kernel tree's OUT (for the module: make convert M= writes "
                         "its patch, make compile-test M= builds it)")
