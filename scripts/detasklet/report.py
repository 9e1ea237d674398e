"""report.json (machine-readable) and report.md (for a person)."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

from . import outdir
from .classify import Outcome
from .facts import key
from .message import MAPPING
from .scan import strip_comments


def subsystem(path: str) -> str:
    parts = path.split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0]


_ITEM_RE = re.compile(r"\btasklet_\w+\s*\(\s*([^,;()]*(?:\([^()]*\))?[^,;()]*)"
                      r"|\bstruct\s+tasklet_struct\s+\**\s*(\w+)"
                      r"|\bDECLARE_TASKLET\w*\(\s*(\w+)")


def tasklet_names(text: str) -> list[str]:
    """The tasklet items a file names: declared fields and variables, and
    the last identifier of each API call's tasklet argument."""
    code = strip_comments(text)
    names = set()
    for m in _ITEM_RE.finditer(code):
        arg = m.group(1) if m.group(1) is not None else (m.group(2) or m.group(3))
        if arg and arg.strip():
            names.add(key(arg))
    return sorted(n for n in names if not n.isdigit())


def rules_of(o: Outcome) -> list[str]:
    """The rows of the mapping (message.MAPPING, the one the commit
    messages print) that a converted file's old text used."""
    if o.status != "converted":
        return []
    code = strip_comments(o.old)
    return [row for _, rx, row, _ in MAPPING if re.search(rx, code)]


def write(out: Path, kernel: str, outcomes: list[Outcome],
          unscanned: list[tuple[str, str]] | None = None) -> None:
    """report.json and report.md; unscanned: the paths the scan could not
    read or would not follow (symbolic links out of the tree), with why."""
    files = [{"path": o.path, "status": o.status, "reason": o.reason,
              "rules": rules_of(o), "tasklets": tasklet_names(o.old), "api": o.api,
              "notes": o.notes, "sites": o.sites}
             for o in sorted(outcomes, key=lambda o: o.path)]
    data: dict = {"kernel": kernel, "target": "bh", "files": files}
    if unscanned:
        data["unscanned"] = [{"path": p, "reason": why} for p, why in sorted(unscanned)]
    (out / "report.json").write_text(json.dumps(data, indent=1) + "\n")
    by: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        by[subsystem(o.path)].append(o)
    n = len(outcomes)
    c = sum(o.status == "converted" for o in outcomes)
    lines = [f"# detasklet report: Linux {kernel}, target bh", "",
             f"{c} of {n} files converted ({100 * c / max(n, 1):.1f}%).", "",
             "| subsystem | files | converted | unconverted | failed |",
             "|---|---:|---:|---:|---:|"]
    for sub in sorted(by):
        os_ = by[sub]
        lines.append(f"| {sub} | {len(os_)} | {sum(o.status == 'converted' for o in os_)} | "
                     f"{sum(o.status == 'unconverted' for o in os_)} | "
                     f"{sum(o.status == 'failed' for o in os_)} |")
    lines += sites_section(outcomes)
    noted = [o for o in sorted(outcomes, key=lambda o: o.path) if o.notes]
    if noted:
        lines += ["", "## Converted, with a note for the reviewer", ""]
        lines += [f"- `{o.path}`: {n}" for o in noted for n in o.notes]
    if unscanned:
        lines += ["", "## Not scanned, and why", "",
                  "These paths could not be read or lead out of the tree: tasklet users "
                  "among them are not in this report.", ""]
        lines += [f"- `{p}`: {why}" for p, why in sorted(unscanned)]
    lines += ["", "## Not converted, and why", ""]
    for o in sorted(outcomes, key=lambda o: o.path):
        if o.status != "converted":
            lines.append(f"- `{o.path}` ({o.status}): {o.reason}")
    (out / "report.md").write_text("\n".join(lines) + "\n")


def sites_section(outcomes: list[Outcome]) -> list[str]:
    """report.md: every enable/kill/disable/unlock_wait site and every
    decided schedule of the converted files, by verdict, then each one that
    is not a teardown kill, with the reason."""
    recs = [s for o in sorted(outcomes, key=lambda o: o.path) for s in o.sites if s["verdict"]]
    if not recs:
        return []
    count: dict[tuple[str, str, str], int] = defaultdict(int)
    for s in recs:
        count[(s["api"], s["replacement"], s["verdict"]
               + (f" ({s['analysis']})" if s["verdict"] == "exact" else ""))] += 1
    lines = ["", "## Sites, by verdict", "",
             "Every call whose replacement is not the same operation, in the converted "
             "files: exact (an analysis proves it), tracked (the enable queues again only "
             "if a run was asked for), decided (a decision for the driver, in decisions/).",
             "", "| call | becomes | verdict | sites |", "|---|---|---|---:|"]
    lines += [f"| {a}() | {r} | {v} | {n} |" for (a, r, v), n in sorted(count.items())]
    lines += ["", "Each site but the teardown kills:", ""]
    lines += [f"- `{s['path']}:{s['line']}` {s['function']}(): {s['api']}({s['item']}) -> "
              f"{s['replacement']}, {s['verdict']}: {s['why']}"
              for s in recs if s["analysis"] != "teardown"]
    return lines


def add_build(out: Path, builds: dict[str, dict], section: list[str]) -> None:
    """compile-test results: a "build" record per file of report.json, and
    section (a "## Build" block) in report.md, replacing an older one."""
    rj = out / "report.json"
    data = json.loads(rj.read_text())
    for f in data["files"]:
        if f["path"] in builds:
            f["build"] = builds[f["path"]]
        else:
            f.pop("build", None)
    outdir.write_file(out, "report.json", json.dumps(data, indent=1) + "\n")
    md = out / "report.md"
    text = md.read_text() if md.is_file() else ""
    head, sep, rest = text.partition("\n## Build\n")
    if sep:
        nxt = rest.find("\n## ")
        rest = rest[nxt + 1:] if nxt >= 0 else ""
        text = head.rstrip("\n") + "\n" + ("\n" + rest if rest else "")
    md.write_text(text.rstrip("\n") + "\n\n" + "\n".join(section) + "\n")
