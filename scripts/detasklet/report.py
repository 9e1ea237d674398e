"""report.json (machine-readable) and report.md (for a person)."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

from .classify import Outcome
from .facts import key
from .scan import find_uses, strip_comments


def subsystem(path: str) -> str:
    parts = path.split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0]


# What each tasklet identifier became (cocci/*.cocci); "rules" of a
# converted file lists the rows its diff used.
MAPPING = {
    "tasklet_struct": "struct tasklet_struct -> struct work_struct",
    "tasklet_setup": "tasklet_setup -> INIT_WORK",
    "tasklet_init": "tasklet_init (data is the container) -> INIT_WORK + from_work",
    "from_tasklet": "from_tasklet -> from_work",
    "DECLARE_TASKLET": "DECLARE_TASKLET -> DECLARE_WORK",
    "DECLARE_TASKLET_OLD": "DECLARE_TASKLET_OLD -> DECLARE_WORK",
    "tasklet_schedule": "tasklet_schedule -> queue_work(system_bh_wq)",
    "tasklet_hi_schedule": "tasklet_hi_schedule -> queue_work(system_bh_highpri_wq)",
    "tasklet_kill": "tasklet_kill -> cancel_work_sync",
    "tasklet_disable": "tasklet_disable -> disable_work_sync",
    "tasklet_disable_nosync": "tasklet_disable_nosync -> disable_work",
    "tasklet_enable": "tasklet_enable -> enable_and_queue_work",
    "tasklet_unlock_wait": "tasklet_unlock_wait -> flush_work",
    "TASKLET_STATE_SCHED": "test_bit(TASKLET_STATE_SCHED) -> work_pending",
}


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
    if o.status != "converted":
        return []
    used = {u.ident for u in find_uses(o.old)}
    return [MAPPING[k] for k in MAPPING if k in used]


def write(out: Path, kernel: str, outcomes: list[Outcome]) -> None:
    files = [{"path": o.path, "status": o.status, "reason": o.reason,
              "rules": rules_of(o), "tasklets": tasklet_names(o.old), "api": o.tasklets,
              "notes": o.notes}
             for o in sorted(outcomes, key=lambda o: o.path)]
    (out / "report.json").write_text(json.dumps(
        {"kernel": kernel, "target": "bh", "files": files}, indent=1) + "\n")
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
    noted = [o for o in sorted(outcomes, key=lambda o: o.path) if o.notes]
    if noted:
        lines += ["", "## Converted, with a note for the reviewer", ""]
        lines += [f"- `{o.path}`: {n}" for o in noted for n in o.notes]
    lines += ["", "## Not converted, and why", ""]
    for o in sorted(outcomes, key=lambda o: o.path):
        if o.status != "converted":
            lines.append(f"- `{o.path}` ({o.status}): {o.reason}")
    (out / "report.md").write_text("\n".join(lines) + "\n")


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
    tmp = rj.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    tmp.replace(rj)
    md = out / "report.md"
    text = md.read_text() if md.is_file() else ""
    head, sep, rest = text.partition("\n## Build\n")
    if sep:
        nxt = rest.find("\n## ")
        rest = rest[nxt + 1:] if nxt >= 0 else ""
        text = head.rstrip("\n") + "\n" + ("\n" + rest if rest else "")
    md.write_text(text.rstrip("\n") + "\n\n" + "\n".join(section) + "\n")
