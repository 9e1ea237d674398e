# SPDX-License-Identifier: GPL-2.0-only
"""The files of an OUT read back, checked, and a section of report.md.

series, send-check, compile-test and coverage start from a convert OUT:
report.json, groups.json and all.patch are read here, checked for the shape
convert writes; a damaged or inconsistent OUT is an InputError that says
to run make convert again.
"""

from __future__ import annotations

import enum
import json
from pathlib import Path

from ..errors import InputError
from .builds import Build
from .staging import write_file


class Status(enum.StrEnum):
    """The outcome of a file in report.json."""
    CONVERTED = "converted"      # in all.patch
    UNCONVERTED = "unconverted"  # left as it was, with the reason
    FAILED = "failed"            # spatch failed on it


def _bad(path: Path, what: str) -> InputError:
    return InputError(f"{path} {what}: run make convert again")


def _read(out: Path, name: str, then: str) -> str:
    p = out / name
    try:
        return p.read_bytes().decode("utf-8", errors="surrogateescape")
    except FileNotFoundError:
        raise InputError(f"{out} has no {name}: run make convert {then}") from None
    except OSError as e:
        raise InputError(f"cannot read {p}: {e.strerror}") from None


def _json(out: Path, name: str, then: str) -> object:
    try:
        return json.loads(_read(out, name, then))
    except ValueError as e:
        raise _bad(out / name, f"is not JSON ({e})") from None


def load_report(out: Path) -> dict:
    """OUT/report.json, checked for the shape the tool writes."""
    data = _json(out, "report.json", "first")
    rj = out / "report.json"
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(data, dict) or not isinstance(files, list):
        raise _bad(rj, "is not a detasklet report (no list of files)")
    statuses = [s.value for s in Status]
    for i, f in enumerate(files):
        if not (isinstance(f, dict) and isinstance(f.get("path"), str)
                and f.get("status") in statuses):
            raise _bad(rj, f"is not a detasklet report (file entry {i} has no path "
                           "or a status other than " + "/".join(statuses) + ")")
    return data


def load_groups(out: Path) -> list[list[str]]:
    data = _json(out, "groups.json", "again")
    groups = data.get("groups") if isinstance(data, dict) else None
    if not (isinstance(groups, list) and all(
            isinstance(g, list) and all(isinstance(p, str) for p in g) for g in groups)):
        raise _bad(out / "groups.json", "is not a list of groups of paths")
    return groups


def load_patch(out: Path) -> str:
    return _read(out, "all.patch", "first")


def converted(report: dict) -> list[str]:
    """The files report.json says are converted, sorted."""
    return sorted(f["path"] for f in report["files"] if f["status"] == Status.CONVERTED)


def builds(report: dict) -> dict[str, Build]:
    """path -> the "build" record make compile-test wrote, where there is one
    (a prep patch's files: under report.json "prep")."""
    got = {f["path"]: f["build"] for f in report["files"] if f.get("build")}
    got.update({p: b for pr in report.get("prep", []) for p, b in pr.get("build", {}).items()})
    return {p: Build.of(b) for p, b in got.items()}


def core_sources(report: dict) -> list[str]:
    """The .c files of the core removal (report.json "core"), when the
    convert left no user and wrote it."""
    return sorted(f for f in report.get("core", {}).get("files", []) if f.endswith(".c"))


def prep_files(report: dict) -> list[str]:
    """The files of the subsystems' prep patches (report.json "prep")."""
    return sorted(f for pr in report.get("prep", []) for f in pr["files"])


def check_consistent(out: Path, report: dict, patched: list[str]) -> None:
    """Every file report.json says converted (or a prep patch changes) is
    in all.patch, and back."""
    conv, have = set(converted(report)) | set(prep_files(report)), set(patched)
    missing, extra = sorted(conv - have), sorted(have - conv)
    if missing:
        raise InputError(f"{out}/all.patch lacks {missing[0]}"
                         + (f" and {len(missing) - 1} more" if len(missing) > 1 else "")
                         + ", converted in report.json: run make convert again")
    if extra:
        raise InputError(f"{out}/all.patch changes {extra[0]}, which report.json does not "
                         "list as converted: run make convert again")


def add_section(out: Path, section: list[str]) -> None:
    """Put section (its first line is a '## Title') at the end of
    report.md, replacing an older section of that title."""
    md = out / "report.md"
    text = md.read_text() if md.is_file() else ""
    head, sep, rest = text.partition("\n" + section[0] + "\n")
    if sep:
        nxt = rest.find("\n## ")
        text = head.rstrip("\n") + "\n" + ("\n" + rest[nxt + 1:] if nxt >= 0 else "")
    write_file(out, "report.md", text.rstrip("\n") + "\n\n"
               + "\n".join(section).rstrip("\n") + "\n")


def series_patches(out: Path) -> list[Path]:
    """The patches of OUT/series/, cover letters excepted: series/<tree>/NNNN-*.patch,
    in the order of series/README (folders by name, patches by number)."""
    return sorted(p for p in (out / "series").glob("*/[0-9][0-9][0-9][0-9]-*.patch")
                  if not p.name.startswith("0000-"))
