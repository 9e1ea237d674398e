# SPDX-License-Identifier: GPL-2.0-only
"""runtime.json and the table of make runtime, from the parsed boots."""

from __future__ import annotations

from . import logcheck, results
from .workloads import NOT_RUN, Workload


def _side(s: results.Slice) -> dict:
    return {"status": s.status, "secs": s.secs, "figures": s.figures, "hits": s.hits,
            "reasons": s.reasons, "findings": [str(f) for f in s.findings]}


def _workload(w: Workload, runs: dict[str, results.Run],
              fns: dict[str, list[str]]) -> dict:
    conv = runs.get("converted")
    pris = runs.get("pristine")
    d: dict = {"name": w.name, "what": w.what}
    for k, r in runs.items():
        d[k] = _side(r.workloads[w.name])
    if conv is None:
        d.update(verdict="not-run", exercised={}, also_ran={})
        return d
    known = {logcheck.key(f) for f in results.all_findings(pris)} if pris else set()
    d["verdict"] = results.verdict(pris.workloads[w.name] if pris else None,
                                   conv.workloads[w.name], known)
    ran = results.exercised(conv.workloads[w.name].hits, fns)
    d["exercised"] = {f: v for f, v in ran.items() if f.startswith(w.targets)}
    d["also_ran"] = {f: v for f, v in ran.items() if f not in d["exercised"]}
    return d


def summarize(o: object, version: str, built: dict[str, dict], runs: dict[str, results.Run],
              chosen: list[Workload], fns: dict[str, list[str]]) -> dict:
    kernels = {}
    for k, r in runs.items():
        other = runs.get("pristine" if k == "converted" else "converted")
        known = {logcheck.key(f) for f in results.all_findings(other)} if other else set()
        kernels[k] = {**built[k], "init_finished": r.done, "profiled_functions": r.profiled,
                      "boot_findings": [str(f) for f in r.boot.findings],
                      "boot_findings_not_on_the_other": [
                          str(f) for f in logcheck.significant(r.boot.findings, known)],
                      "all_findings": logcheck.summary(results.all_findings(r))}
    wl = [_workload(w, runs, fns) for w in chosen]
    by_file: dict[str, list[str]] = {}
    for w in wl:
        for f in w["exercised"] if w["verdict"] == "pass" else ():
            by_file.setdefault(f, []).append(w["name"])
    return {"kernel": version, "accel": "tcg", "command": getattr(o, "command", ""),
            "kernels": kernels, "workloads": wl, "exercised_files": by_file,
            "profiled": fns, "not_run": NOT_RUN}


def _fig(side: dict | None) -> str:
    if not side:
        return "-"
    figs = ", ".join(f"{k}={v}" for k, v in side["figures"].items() if k.endswith(
        ("_mbit", "_ms", "_mb_s", "_replies", "_packets", "_symbols", "_pct")))
    s = side["status"]
    if side["findings"]:
        s += f" ({len(side['findings'])} kernel reports)"
    return f"{s} {side['secs'] or ''}s {figs}".strip()


def table(doc: dict) -> str:
    lines = [f"make runtime: Linux {doc['kernel']}, QEMU ({doc['accel'].upper()})", ""]
    for k, d in doc["kernels"].items():
        lines.append(f"  {k:9} built in {d.get('build_secs', '?')} s "
                     f"({d.get('files_compiled', '?')} files), booted and ran in "
                     f"{d.get('boot_secs', '?')} s; kernel reports: {d['all_findings']}")
    lines.append("")
    for w in doc["workloads"]:
        lines.append(f"{w['name']:9} {w['verdict']}")
        for k in ("pristine", "converted"):
            if k in w:
                lines.append(f"  {k:9} {_fig(w[k])}")
                for r in w[k]["reasons"][:2]:
                    lines.append(f"            why: {r}")
                for f in w[k]["findings"][:3]:
                    lines.append(f"            {f}")
        for f, fns in w["exercised"].items():
            lines.append(f"  ran       {f}: {', '.join(fns)}")
        if w["also_ran"]:
            lines.append(f"  also ran  (not credited) {', '.join(sorted(w['also_ran']))}")
    lines.append("")
    lines.append(f"converted files shown exercised (a converted function ran in a workload "
                 f"for it that passed on both kernels): {len(doc['exercised_files'])} of "
                 f"{len(doc['profiled'])} profiled")
    for name, why in doc["not_run"].items():
        lines.append(f"not run: {name}: {why}")
    return "\n".join(lines) + "\n"
