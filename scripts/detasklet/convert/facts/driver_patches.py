# SPDX-License-Identifier: GPL-2.0-only
"""Stage 2: the per-driver patches, cocci/drivers/*.cocci and *.patch.

A driver whose tasklet use has a shape no generic analysis covers (a
callback taken from a function pointer, ...) gets a semantic patch of its
own, written by a person who read the driver. Where SmPL cannot say it
(spatch 1.1.1 neither parses a function header built with ## nor matches
#ifdef lines), it is a plain diff instead, cocci/drivers/<driver>.patch,
with the same header lines before its first `diff --git`; its hunks apply
where their lines are (an offset, no fuzz), each found exactly once.
Either rewrites the driver from one tasklet form into another that does
the same and that the generic rules convert; its `///` lines say, in the
driver's terms, why the new form does what the old one did, and that text
goes to the commit message (an empty `///` line between paragraphs).
Its `// Files:` line names the tree-relative
files it is for.

The patch runs on the file's text before the facts are taken (after it,
convert.facts.normalise), like the rest of the pipeline on a scratch copy: the
kernel tree is not touched. A patch that changes nothing (another kernel,
a driver that changed) leaves the file as it was, to be refused for its
own reason.

A patch with a `// Prep: <subject>` line is a change the driver's
maintainers would take on its own (dead code removed, a missing cancel
added): it becomes a patch of its own, with that subject and the /// text
as its message, right before the driver's conversion in the series; it
runs before the other driver patches. One prep patch per file.

A patch with a `// Fix: <subject>` line instead is a bug fix the
conversion needs (a kill while the interrupt can still schedule the
tasklet, a count that underflows): a patch of its own too, but the first
of its tree's series, for the tree's fixes branch, and the conversion
applies on top of it. `// Fixes: <12+ hex digits> ("<subject>")` names
the commit that brought the bug in, when it is known; it becomes the
mail's Fixes: tag. A fix runs first of all (before a prep patch). One fix
patch per file. An empty `///` line starts a new paragraph of the message.

A patch that is neither rewrites the file in place, inside its
conversion: the commit message's table then lists the API the tree's text
had, which the patch removes, not the form the rules converted. Each
`// Mapping: <API>() -> <what it became>` line is the row of an API the
patch turned into something else than the mapping's row says (vt
keyboard: `DECLARE_TASKLET_DISABLED() -> DECLARE_WORK() and ...`); a
per-site row (tasklet_enable, tasklet_kill) adds it to the sites' calls.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path

from ... import proc, scratch
from ...ctext.gitdiff import apply_anywhere, parse
from ...errors import InputError, PatchError
from ...mapping import row_key

log = logging.getLogger("detasklet")

FOLDER = Path(__file__).resolve().parents[4] / "cocci" / "drivers"
_FILES_RE = re.compile(r"^//\s*Files:\s*(.+)$", re.M)
_DOC_RE = re.compile(r"^///[ \t]?(.*)$", re.M)
# The driver's name first in a /// text ("iosm: ", "liquidio (PF): "), as
# the kernel's .cocci headers have it: the message names the driver
# already ("In iosm, ..."), so its bullet starts with what was done.
_LABEL_RE = re.compile(r"\A[\w-]+(?: [\w-]+)?(?: \(\w+\))?: (?=\S)")
_PREP_RE = re.compile(r"^//\s*Prep:\s*(.+?)\s*$", re.M)
_FIX_RE = re.compile(r"^//\s*Fix:\s*(.+?)\s*$", re.M)
_FIXES_RE = re.compile(r"^//\s*Fixes:\s*(.*?)\s*$", re.M)
_MAPPING_RE = re.compile(r"^//\s*Mapping:\s*(.+?)\s*$", re.M)
# the kernel's form of the tag (Documentation/process/submitting-patches.rst)
FIXES_FORM = re.compile(r'[0-9a-f]{12,40} \("\S.*"\)')


@dataclass(frozen=True)
class DriverPatch:
    path: Path
    files: tuple[str, ...]     # tree-relative
    why: str                   # the /// text, its paragraphs apart ("\n\n")
    prep: str = ""             # the subject of its own patch, when it is a prep patch
    fix: str = ""              # the subject of its own patch, when it is a fix
    fixes: str = ""            # the Fixes: tag's value, when the bad commit is known
    rows: tuple[str, ...] = ()  # its `// Mapping:` rows (an in-place patch's)

    @property
    def name(self) -> str:
        return f"cocci/drivers/{self.path.name}"

    @property
    def own(self) -> str:
        """The subject of the patch of its own it becomes (a fix or a prep
        patch), "" when it only prepares the file for the rules."""
        return self.fix or self.prep


def load(folder: Path = FOLDER) -> list[DriverPatch]:
    """Every driver patch of folder, with its files and reason."""
    out = []
    found = sorted([*folder.glob("*.cocci"), *folder.glob("*.patch")]) if folder.is_dir() else []
    for p in found:
        text = p.read_text()
        head = text.split("\ndiff --git ", 1)[0]
        files = _FILES_RE.search(head)
        why = _unlabelled(_paragraphs(_DOC_RE.findall(head)))
        if files and why:
            out.append(DriverPatch(p, tuple(files.group(1).split()), why,
                                   *_own_lines(p.name, head), rows=_rows(p.name, head)))
        else:
            log.warning(f"cocci/drivers/{p.name}: no '// Files:' line or no '///' text; "
                        "not used")
    for kind in ("prep", "fix"):
        twice = [f for d in out if getattr(d, kind) for f in d.files
                 if sum(f in e.files for e in out if getattr(e, kind)) > 1]
        if twice:
            raise InputError(f"cocci/drivers/: two {kind} patches for {twice[0]}; one per file")
    return out


def _own_lines(name: str, head: str) -> tuple[str, str, str]:
    """(prep subject, fix subject, Fixes: value) of a driver patch's
    header; a header that mixes them up is an InputError."""
    prep, fix, fixes = (m.group(1) if m else "" for m in
                        (r.search(head) for r in (_PREP_RE, _FIX_RE, _FIXES_RE)))
    if prep and fix:
        raise InputError(f"cocci/drivers/{name}: both '// Prep:' and '// Fix:'; a patch is "
                         "one or the other")
    if fixes and not fix:
        raise InputError(f"cocci/drivers/{name}: '// Fixes:' without '// Fix:'")
    if fixes and not FIXES_FORM.fullmatch(fixes):
        raise InputError(f"cocci/drivers/{name}: '// Fixes: {fixes}' is not "
                         '<12 or more hex digits> ("<subject>")')
    return prep, fix, fixes


def _rows(name: str, head: str) -> tuple[str, ...]:
    """The `// Mapping:` rows of a driver patch's header; one whose left
    side names no tasklet API is an InputError."""
    rows = tuple(_MAPPING_RE.findall(head))
    bad = next((r for r in rows if not row_key(r)), "")
    if bad:
        raise InputError(f"cocci/drivers/{name}: '// Mapping: {bad}' is not "
                         "'<tasklet API>() -> <what it became>'")
    return rows


def _unlabelled(why: str) -> str:
    """why without the driver's name first; a plain word that then starts
    it gets its capital ("lcs: the irq_tasklet" -> "The irq_tasklet")."""
    rest = _LABEL_RE.sub("", why, count=1)
    if rest != why and re.match(r"[a-z]+\b(?![_(.-]|->)", rest):
        rest = rest[0].upper() + rest[1:]
    return rest


def _paragraphs(lines: list[str]) -> str:
    """The /// text: its paragraphs (an empty /// line ends one), each
    on one line, an empty line between them."""
    paras: list[str] = []
    cur: list[str] = []
    for ln in [*lines, ""]:
        if ln.strip():
            cur.append(ln)
        elif cur:
            paras.append(" ".join(" ".join(cur).split()))
            cur = []
    return "\n\n".join(paras)


def for_file(patches: list[DriverPatch], rel: str) -> list[DriverPatch]:
    """The driver patches of the file rel: its fix first, then its prep
    patch, then the others."""
    return sorted((d for d in patches if rel in d.files),
                  key=lambda d: 0 if d.fix else 1 if d.prep else 2)


def apply(d: DriverPatch, rel: str, text: str, timeout: int = 120) -> str:
    """text (the file rel) with the driver patch d applied; text itself
    when it changes nothing or spatch fails (logged)."""
    if d.path.suffix == ".patch":
        return _apply_diff(d, rel, text)
    from ..rewrite.spatch import SPATCH_FLAGS      # spatch imports groups, which imports this
    # the generic rules' flags without their modes: only -D patch here
    flags = [f for f in SPATCH_FLAGS if f not in ("-D", "report", "facts", "patch")]
    with scratch.folder("driver") as tmp:
        src = tmp / Path(rel).name
        out = tmp / "out.c"
        src.write_bytes(text.encode("utf-8", errors="surrogateescape"))
        run = proc.run(["spatch", *flags, "-D", "patch", "--timeout", str(timeout),
                        "--sp-file", str(d.path), str(src), "-o", str(out)],
                       timeout=timeout + 30)
        if not out.exists():
            if "there are no modified files" not in run.stderr:
                log.warning(f"{rel}: {d.name} failed (spatch exit {run.rc})")
            return text
        return out.read_bytes().decode("utf-8", errors="surrogateescape")


def _apply_diff(d: DriverPatch, rel: str, text: str) -> str:
    """A .patch driver patch's section for rel applied to text; text itself
    when it has none or it does not apply (logged)."""
    try:
        fds = [fd for fd in parse(d.path.read_text()) if fd.path == rel]
        return apply_anywhere(text, fds[0]) if fds else text
    except PatchError as e:
        log.warning(f"{rel}: {d.name} does not apply ({e})")
        return text
