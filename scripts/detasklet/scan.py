"""Find the files of a kernel tree that use the tasklet API.

The scan is textual on purpose: it must find every user, including the code
spatch cannot parse, because it is also the check that decides whether a
rewritten file still names the tasklet API. Comments and string literals are
blanked first (keeping line numbers), so prose never counts.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

# The tasklet core itself: never a "user", never rewritten by the driver rules.
CORE_FILES = frozenset({
    "kernel/softirq.c",
    "include/linux/interrupt.h",
    "include/trace/events/irq.h",
})

# Every identifier of the tasklet API (include/linux/interrupt.h, 6.12).
API_IDENTIFIERS = (
    "tasklet_struct", "tasklet_setup", "tasklet_init", "from_tasklet",
    "tasklet_schedule", "tasklet_hi_schedule", "__tasklet_schedule",
    "__tasklet_hi_schedule", "tasklet_kill", "tasklet_kill_immediate",
    "tasklet_disable", "tasklet_disable_nosync", "tasklet_disable_in_atomic",
    "tasklet_enable", "tasklet_unlock_wait", "tasklet_unlock_spin_wait",
    "tasklet_trylock", "tasklet_unlock", "DECLARE_TASKLET",
    "DECLARE_TASKLET_OLD", "DECLARE_TASKLET_DISABLED",
    "DECLARE_TASKLET_DISABLED_OLD", "TASKLET_STATE_SCHED", "TASKLET_STATE_RUN",
)
API_RE = re.compile(r"\b(" + "|".join(sorted(API_IDENTIFIERS, key=len, reverse=True)) + r")\b")

SOURCE_SUFFIXES = (".c", ".h")
# Folders of a kernel tree that never hold kernel C code worth scanning.
SKIP_DIRS = frozenset({".git", "Documentation", "tools", "scripts", "debian",
                       "samples", "LICENSES", "usr"})

_TOKEN_RE = re.compile(
    r"""/\*.*?\*/            # block comment
      | //[^\n]*             # line comment
      | "(?:\\.|[^"\\\n])*"  # string literal
      | '(?:\\.|[^'\\\n])*'  # character literal
    """,
    re.S | re.X,
)


def strip_comments(text: str) -> str:
    """Blank comments and literals, keeping every newline in place."""
    def blank(m: re.Match[str]) -> str:
        s = m.group(0)
        if s.startswith('"'):
            return '""'
        if s.startswith("'"):
            return "' '"
        return re.sub(r"[^\n]", " ", s)
    # Line continuations inside a line comment would hide the next line:
    # the preprocessor joins them, and so do we.
    return _TOKEN_RE.sub(blank, text)


@dataclass(frozen=True)
class Use:
    """One occurrence of a tasklet API identifier."""
    line: int
    ident: str


@dataclass
class FileScan:
    path: str                      # relative to the tree root, with '/'
    uses: list[Use] = field(default_factory=list)

    @property
    def idents(self) -> list[str]:
        return sorted({u.ident for u in self.uses})


def find_uses(text: str) -> list[Use]:
    """Every API identifier outside comments and strings, with its line."""
    code = strip_comments(text)
    uses = []
    for m in API_RE.finditer(code):
        uses.append(Use(code.count("\n", 0, m.start()) + 1, m.group(1)))
    return uses


def read_text(path: Path) -> str:
    return path.read_bytes().decode("utf-8", errors="surrogateescape")


def _in_tree(kdir: Path, p: Path) -> bool:
    real, top = p.resolve(), kdir.resolve()
    return real == top or top in real.parents


def iter_sources(kdir: Path, paths: list[str],
                 problems: list[tuple[str, str]] | None = None) -> list[str]:
    """Relative paths of the .c/.h files under the given parts of the tree.
    What cannot be scanned (an unreadable folder, a symbolic link leading
    out of the tree or nowhere) goes to problems as (path, why), never
    silently away; a link to a file of the tree is left to that file."""
    found: set[str] = set()
    roots = paths or ["."]

    def problem(rel: str, why: str) -> None:
        if problems is not None:
            problems.append((rel.replace(os.sep, "/"), why))

    def source(rel: str) -> None:
        p = kdir / rel
        if p.is_symlink():
            if not p.exists():
                problem(rel, "a dangling symbolic link: not scanned")
            elif not _in_tree(kdir, p):
                problem(rel, f"a symbolic link out of the tree (to {p.resolve()}): not "
                             "converted")
            return
        found.add(rel.replace(os.sep, "/"))

    for root in roots:
        top = kdir / root
        rel_top = os.path.normpath(os.path.relpath(top, kdir))
        if top.is_file() or top.is_symlink() and not top.is_dir():
            if top.suffix in SOURCE_SUFFIXES:
                source(rel_top)
            continue

        def walk_error(e: OSError) -> None:
            problem(os.path.relpath(e.filename, kdir),
                    f"cannot be read ({e.strerror}): its files were not scanned")
        for dirpath, dirnames, filenames in os.walk(top, onerror=walk_error):
            rel_dir = os.path.relpath(dirpath, kdir)
            if rel_dir == ".":
                dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for d in dirnames:
                p = Path(dirpath, d)
                if p.is_symlink() and not (p.exists() and _in_tree(kdir, p)):
                    problem(os.path.normpath(os.path.join(rel_dir, d)),
                            "a symbolic link to a folder out of the tree or nowhere: "
                            "not scanned")
            for name in filenames:
                if name.endswith(SOURCE_SUFFIXES):
                    source(os.path.normpath(os.path.join(rel_dir, name)))
    return sorted(found)


_QUICK = re.compile(rb"tasklet|TASKLET")


def scan_tree(kdir: Path, paths: list[str],
              problems: list[tuple[str, str]] | None = None) -> list[FileScan]:
    """All tasklet API users under paths, the tasklet core excluded; files
    that cannot be read go to problems (see iter_sources)."""
    users = []
    for rel in iter_sources(kdir, paths, problems):
        if rel in CORE_FILES:
            continue
        try:
            raw = (kdir / rel).read_bytes()
        except OSError as e:
            if problems is not None:
                problems.append((rel, f"cannot be read ({e.strerror}): not scanned"))
            continue
        if not _QUICK.search(raw):
            continue
        uses = find_uses(raw.decode("utf-8", errors="surrogateescape"))
        if uses:
            users.append(FileScan(rel, uses))
    return users


_FUNC_RE = re.compile(r"(\w+)\s*\([^;{}]*\)\s*\n\{", re.S)


def block_at(code: str, i: int) -> str | None:
    """The {...} block of comment-stripped code whose '{' is at i, or None
    when it is not closed."""
    depth = 0
    for j in range(i, len(code)):
        depth += {"{": 1, "}": -1}.get(code[j], 0)
        if depth == 0:
            return code[i:j + 1]
    return None


def functions(code: str) -> dict[str, str]:
    """Function definitions of comment-stripped code, kernel style (the
    opening brace in column 0): name -> body."""
    out: dict[str, str] = {}
    for m in _FUNC_RE.finditer(code):
        body = block_at(code, m.end() - 1)
        if body is not None:
            out[m.group(1)] = body
    return out
