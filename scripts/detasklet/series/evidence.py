# SPDX-License-Identifier: GPL-2.0-only
"""What a mail may say was measured for its files, and nothing else: the
build records make compile-test wrote into report.json ("build"), and the
workloads make runtime ran (OUT/runtime/runtime.json: the pristine and the
converted kernel booted in QEMU, the same workloads on both). A mail whose
files no record names says nothing about building or running them.

A convert replaces OUT whole and does not carry runtime/ over, so a
runtime.json in OUT was made from that OUT's patches.
"""

from __future__ import annotations

import json
from typing import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..out import files as outfiles
from ..out.builds import Build

RUNTIME = Path("runtime") / "runtime.json"


def build_sentence(paths: list[str], builds: Mapping[str, Build | dict]) -> str:
    """What make compile-test said about these files, in one paragraph;
    '' when it recorded no build of them."""
    recs = {p: Build.of(builds[p]) for p in paths if p in builds}
    if not recs:
        return ""
    ok = sorted(p for p, b in recs.items() if b.builds)
    bad = sorted(p for p, b in recs.items() if b.fails)
    arches = sorted({a for p in ok for a in recs[p].arches()})
    configs = sorted({recs[p].config for p in ok} - {""})
    parts = []
    if ok:
        parts.append(f"Compile-tested with {' and '.join(configs) or 'a config'} on "
                     f"{', '.join(arches) or 'the host'}: "
                     + ("all the changed files build." if len(ok) == len(paths) else
                        f"{len(ok)} of the {len(paths)} changed files build."))
    if bad:
        parts.append(f"FAILS TO BUILD: {', '.join(bad)}.")
    rest = sorted(set(paths) - set(ok) - set(bad))
    if rest:
        why = sorted({recs[p].log for p in rest if p in recs} - {""})
        parts.append(f"Not built: {', '.join(rest)}"
                     + (f" ({'; '.join(why)})" if why else "") + ".")
    return " ".join(parts)


def _where(runtime: dict) -> str:
    accel = str(runtime.get("accel", "tcg")).upper()
    return (f"in QEMU ({accel}{', no KVM' if accel == 'TCG' else ''}) on Linux "
            f"{runtime.get('kernel', '?')}")


def _ran(w: dict, paths: list[str]) -> list[str]:
    """'foo_work() ran 1178 times' for the converted functions of paths
    that the workload ran, with the converted kernel's count."""
    hits = w.get("converted", {}).get("hits", {})
    fns = sorted({fn for p in paths for fn in w.get("exercised", {}).get(p, [])})
    return [f"{fn}() ran {hits[fn]} times" if hits.get(fn) else f"{fn}() ran"
            for fn in fns]


def _passed(runtime: dict, paths: list[str]) -> list[dict]:
    """The workloads that passed on both kernels, with no kernel report in
    either, and ran a converted function of one of paths."""
    return [w for w in runtime.get("workloads", [])
            if w.get("verdict") == "pass" and set(w.get("exercised", {})) & set(paths)]


def tested_sentence(paths: list[str], runtime: dict) -> str:
    """What the workloads of _passed() ran of these files; '' for none."""
    ran = _passed(runtime, paths)
    if not ran:
        return ""
    whats = "; ".join(f"{w['what']} ({', '.join(_ran(w, paths))})" for w in ran)
    return (f"Tested {_where(runtime)}, with every patch of the conversion and the "
            f"removal of the tasklet core applied, and the same kernel unpatched: "
            f"{whats}. It passes on both, and neither kernel's log has a lockdep, "
            f"debugobjects, WARNING or BUG report during it.")


@dataclass(frozen=True)
class Evidence:
    builds: Mapping[str, Build | dict]               # path -> report.json "build"
    runtime: dict = field(default_factory=dict)      # runtime.json, or {}

    def sentences(self, paths: list[str]) -> list[str]:
        """The paragraphs a patch of these files may carry."""
        return [s for s in (build_sentence(paths, self.builds),
                            tested_sentence(paths, self.runtime)) if s]

    def cover_lines(self, mine: list[str]) -> list[str]:
        """What the cover letter of a series whose files are mine says was
        measured: the compile-test count, and each workload that ran one of
        its converted functions."""
        lines = []
        built = [p for p in mine if p in self.builds and Build.of(self.builds[p]).builds]
        if any(p in self.builds for p in mine):
            lines += ["", f"Compile-tested: {len(built)} of the {len(mine)} changed files "
                      "built, each patch on its own; each patch says with which "
                      "configuration and on which architectures."]
        ran = _passed(self.runtime, mine)
        if ran:
            lines += ["", f"Run {_where(self.runtime)}, pristine and with the whole "
                      "conversion applied (each patch says what ran its code):", ""]
            lines += [f"- {w['what']}" for w in ran]
        return lines


def load(out: Path, report: dict) -> Evidence:
    """The evidence of OUT: its report's build records and its runtime.json."""
    try:
        runtime = json.loads((out / RUNTIME).read_text())
    except (OSError, ValueError):
        runtime = {}
    return Evidence(outfiles.builds(report), runtime if isinstance(runtime, dict) else {})
