# SPDX-License-Identifier: GPL-2.0-only
"""report.json gets what make runtime showed: each converted file a
workload exercised (one of its converted functions ran, the workload
passed on both kernels) has "runtime": the kernel version and, per
workload, the functions that ran and how often. A file no workload reached
has no "runtime" key; a rerun replaces what an earlier one wrote."""

from __future__ import annotations

import json
from pathlib import Path


def per_file(doc: dict) -> dict[str, dict[str, dict[str, int]]]:
    """file -> workload -> function -> hits on the converted kernel."""
    out: dict[str, dict[str, dict[str, int]]] = {}
    for w in doc.get("workloads", []):
        if w.get("verdict") != "pass":
            continue
        hits = w.get("converted", {}).get("hits", {})
        for f, fns in w.get("exercised", {}).items():
            out.setdefault(f, {})[w["name"]] = {fn: hits.get(fn, 0) for fn in fns}
    return out


def annotate_report(report: Path, doc: dict) -> int:
    """report.json rewritten with each file's "runtime"; the files annotated."""
    rep = json.loads(report.read_text())
    ran = per_file(doc)
    n = 0
    for f in rep.get("files", []):
        f.pop("runtime", None)
        if f.get("path") in ran:
            f["runtime"] = {"kernel": doc.get("kernel", ""), "accel": doc.get("accel", "tcg"),
                            "workloads": ran[f["path"]]}
            n += 1
    tmp = report.with_name(report.name + ".tmp")
    tmp.write_text(json.dumps(rep, indent=1) + "\n")
    tmp.replace(report)
    return n
