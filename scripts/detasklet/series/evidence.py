# SPDX-License-Identifier: GPL-2.0-only
"""What a mail may say was measured for its files, and nothing else: the
build records make compile-test wrote into report.json ("build"), and the
workloads make runtime ran (OUT/runtime/runtime.json: the pristine and the
converted kernel booted in QEMU, the same workloads on both). A mail whose
files no record names says nothing about building or running them.

A convert replaces OUT whole and does not carry runtime/ over, so a
runtime.json in OUT was made from that OUT's patches. It carries bench/
over (make bench's result), so make runtime-bench's runtime-bench.json
there records the patches its converted kernel was built from
(patch_ids(): all.patch and tasklet-free.patch hashed), and a cover letter
quotes its figures only when they are OUT's patches and the run of
runtime.json on the same kernel ran the series' files.
"""

from __future__ import annotations

import hashlib
import json
from typing import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..out import files as outfiles
from ..out.builds import Build

RUNTIME = Path("runtime") / "runtime.json"
RUNTIME_BENCH = Path("bench") / "runtime-bench.json"
PATCHES = ("all.patch", "tasklet-free.patch")
# The figures of make runtime-bench a cover letter quotes (the issue's: the
# links' throughput and round-trip p99, megaraid_sas' read and write
# rates), by the end of their name -> (what, unit).
QUOTED = {"_mbit": ("throughput", "Mbit/s"), "_p99_ms": ("round-trip p99", "ms"),
          "read_mb_s": ("read rate", "MB/s"), "write_mb_s": ("write rate", "MB/s")}


def patch_ids(out: Path) -> dict[str, str]:
    """sha256 of OUT's patches the converted kernel is built from ('' for
    one that is missing): what ties a run's record to OUT's patches."""
    ids = {}
    for name in PATCHES:
        try:
            ids[name] = hashlib.sha256((out / name).read_bytes()).hexdigest()
        except OSError:
            ids[name] = ""
    return ids


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
    part = [f"{recs[p].changed_compiled} of the {recs[p].changed} in {p}" for p in ok
            if recs[p].changed_compiled < recs[p].changed]
    if part:
        parts.append(f"Not every changed line was compiled: {', '.join(part)}; the others "
                     "sit under preprocessor conditions these configurations leave off.")
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


def _num(v: float) -> str:
    return f"{v:.3g}" if v < 100 else f"{v:.0f}"


def _load(bench: dict) -> str:
    """' (load average A before, B after)' from runtime-bench.json, or ''."""
    try:
        a, b = bench["loadavg_before"][0], bench["loadavg_after"][0]
    except (KeyError, IndexError, TypeError):
        return ""
    return f" (load average {a:g} before, {b:g} after)"


def bench_lines(bench: dict, ran: list[dict]) -> list[str]:
    """What make runtime-bench measured on the links of the workloads ran
    (converted / pristine, the median of the rounds' ratios and their
    range); [] when it measured none of them."""
    names = {w["name"]: w["what"].split(":")[0] for w in ran}
    rows = []
    for key, r in sorted(bench.get("ratios", {}).items()):
        wl, _, fig = key.partition(".")
        end = next((e for e in QUOTED if fig.endswith(e)), "")
        if wl not in names or not end:
            continue
        what, unit = QUOTED[end]
        rows.append(f"- {names[wl]}, {what}: {r['ratio_median']:.2f} "
                    f"[{r['spread'][0]:.2f}, {r['spread'][1]:.2f}] (medians "
                    f"{_num(r['pristine_median'])} and {_num(r['converted_median'])} {unit}; "
                    f"{r['better']} is better; {r['rounds']} rounds)")
    if not rows:
        return []
    n = bench.get("rounds", 0)
    return ["", f"The links' figures, from {n} boots of each of the two kernels, the "
            f"pristine and the converted one in turn: converted / pristine, the median of "
            f"the {n} rounds' ratios [lowest, highest], and each kernel's median figure:",
            "", *rows,
            "", "The boots ran under QEMU's TCG on a shared machine" + _load(bench)
            + ": the figures are the emulator's, not a device's, and the range says how "
            "far they moved between rounds.",
            "", "To reproduce the measurement:", "",
            f"  make runtime-bench KDIR=<linux-{bench.get('kernel', '')}> ROUNDS={n}"]


@dataclass(frozen=True)
class Evidence:
    builds: Mapping[str, Build | dict]               # path -> report.json "build"
    runtime: dict = field(default_factory=dict)      # runtime.json, or {}
    bench: dict = field(default_factory=dict)        # runtime-bench.json of these patches, or {}

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
            lines += bench_lines(self.bench, ran)
        return lines


def _json(path: Path) -> dict:
    try:
        d = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return d if isinstance(d, dict) else {}


def load(out: Path, report: dict) -> Evidence:
    """The evidence of OUT: its report's build records, its runtime.json
    (unless it names other patches than OUT's, or another kernel than the
    report's) and its runtime-bench.json
    when that was run on OUT's patches and the kernel runtime.json ran."""
    ids = patch_ids(out)
    runtime = _json(out / RUNTIME)
    tree = report.get("kernel") or runtime.get("kernel")
    if runtime.get("patches", ids) != ids or runtime.get("kernel") != tree:
        runtime = {}
    bench = _json(out / RUNTIME_BENCH)
    if bench.get("patches") != ids or bench.get("kernel") != runtime.get("kernel"):
        bench = {}
    return Evidence(outfiles.builds(report), runtime, bench)
