"""Stage 1: find the files of a kernel tree that use the tasklet API.

The scan is textual on purpose: it must find every user, including the code
spatch cannot parse, because the same reading (ctext.tasklet.find_uses)
is also the check that decides whether a rewritten file still names the
tasklet API. Comments and literals are masked first, so prose never counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..ctext.sources import Problems, iter_sources
from ..ctext.tasklet import CORE_FILES, MAYBE_RE, Use, find_uses


@dataclass
class FileScan:
    path: str                      # relative to the tree root, with '/'
    uses: list[Use] = field(default_factory=list)

    @property
    def idents(self) -> list[str]:
        return sorted({u.ident for u in self.uses})


def scan_tree(kdir: Path, paths: list[str], problems: Problems | None = None) -> list[FileScan]:
    """All tasklet API users under paths, the tasklet core excluded; files
    that cannot be read go to problems (see ctext.sources.iter_sources)."""
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
        if not MAYBE_RE.search(raw):
            continue
        uses = find_uses(raw.decode("utf-8", errors="surrogateescape"))
        if uses:
            users.append(FileScan(rel, uses))
    return users
