# SPDX-License-Identifier: GPL-2.0-only
"""Hot paths (series/hotpaths.toml) and what a cover letter says of them:
the schedule-to-run latency of the replacement against the tasklet's, as
make bench measured it, with the command that reproduces it.

The figures come from OUT/bench/bench.json (BENCH), which make bench
OUT=... writes (check/bench.py) and which make convert carries into the
OUT it writes anew; nothing is said when there is none. Every number of a
sentence is one of that file: none is computed but the ratio of two of
them, none is assumed."""

from __future__ import annotations

import json
import logging
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..check.bench import BAR, outcome
from ..errors import InputError

log = logging.getLogger("detasklet")

TABLE = Path(__file__).with_name("hotpaths.toml")
BENCH = Path("bench") / "bench.json"        # in OUT, where make bench OUT=... writes it
REPLACEMENT = {"tasklet": ("bh", "system_bh_wq"),
               "tasklet_hi": ("bh_highpri", "system_bh_highpri_wq")}
# TARGET=thread: the process-context item make bench times beside them
# (system_highpri_wq for tasklet_hi: where TARGET=thread queues what it scheduled;
# both with the callback behind the guard the tool writes)
THREAD = {"tasklet": ("percpu", "system_percpu_wq"),
          "tasklet_hi": ("highpri", "system_highpri_wq")}
# What a maintainer calls each mechanism of a comparison.
WORDS = {"tasklet": "tasklet", "bh": "BH work", "tasklet_hi": "tasklet_hi",
         "bh_highpri": "highpri BH work", "percpu": "process-context work",
         "highpri": "highpri process-context work"}


def replacement(mech: str, target: str = "bh") -> tuple[str, str] | None:
    """(bench.json name, workqueue) of what replaces mech for target."""
    return (THREAD if target == "thread" else REPLACEMENT).get(mech)
RUNS = ("x86_64", "um")                     # the order of a cover: QEMU with SMP first
ACCEL = {"tcg": " (TCG, no KVM)", "kvm": " (KVM)"}


@dataclass(frozen=True)
class HotPath:
    name: str
    paths: tuple[str, ...]
    mech: str
    source: str
    overflow: str = ""     # what late draining loses (hotpaths.toml)

    def covers(self, path: str) -> bool:
        """True if the kernel-tree path is one of this hot path's."""
        return any(path == p or (p.endswith("/") and path.startswith(p)) for p in self.paths)


def load(table: Path = TABLE) -> list[HotPath]:
    """The hot paths of the data file."""
    try:
        raw = tomllib.loads(table.read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise InputError(f"cannot read {table}: {e}") from None
    out = []
    for i, h in enumerate(raw.get("hotpath", [])):
        try:
            hp = HotPath(str(h["name"]), tuple(h["paths"]), str(h["mech"]), str(h["source"]),
                         " ".join(str(h.get("overflow", "")).split()))
        except KeyError as e:
            raise InputError(f"{table}: hot path {i + 1} has no {e}") from None
        if hp.mech not in REPLACEMENT or hp.source not in ("process", "hardirq"):
            raise InputError(f"{table}: hot path {hp.name!r}: mech {hp.mech!r} or "
                             f"source {hp.source!r} unknown")
        out.append(hp)
    return out


def matching(path: str, table: Path = TABLE) -> HotPath | None:
    """The hot path a kernel-tree file belongs to, if any."""
    return next((h for h in load(table) if h.covers(path)), None)


def touched(paths: list[str], hot: list[HotPath]) -> list[HotPath]:
    """The hot paths of hot (in its order) that one of paths belongs to."""
    return [h for h in hot if any(h.covers(p) for p in paths)]


def _bench(bench_json: Path) -> dict[str, Any]:
    try:
        data = json.loads(bench_json.read_text())
    except (OSError, ValueError) as e:
        raise InputError(f"cannot read {bench_json}: {e}") from None
    if not isinstance(data, dict) or not isinstance(data.get("runs"), dict):
        raise InputError(f"{bench_json} is not a make bench result (no runs)")
    return data


def read_bench(out: Path) -> dict[str, Any] | None:
    """OUT/bench/bench.json, or None when make bench wrote none there. A
    damaged one is a warning and None: the series is written without it."""
    path = out / BENCH
    if not path.is_file():
        return None
    try:
        return _bench(path)
    except InputError as e:
        log.warning(f"{e}: the cover letters say nothing of latency")
        return None


@dataclass(frozen=True)
class Figures:
    """One run's latency of the replacement (new) and of the tasklet
    (base) from one context: {"n", "p50", "p99", "max"} each, in ns."""
    run: str
    machine: str
    new: dict[str, int]
    base: dict[str, int]
    ratio: float                # new p99 over base p99 (the median of the boots)
    bar: float
    spread: tuple[float, float] | None = None     # that ratio's [min, max] over the boots
    boots: int = 1


def machine(data: dict[str, Any], run: str) -> str:
    """What the run ran on, in words: "UML, 1 CPU", "QEMU x86_64 (TCG, no
    KVM), 2 CPUs"; the accelerator only where bench.json records it."""
    meta = data["runs"][run].get("meta", {})
    cpus = meta.get("cpus")
    n = "" if not isinstance(cpus, int) else f", {cpus} CPU" + ("" if cpus == 1 else "s")
    if run == "um":
        return f"UML{n}"
    return f"QEMU {meta.get('machine') or run}{ACCEL.get(str(data.get('accel')), '')}{n}"


def figures(data: dict[str, Any], hp: HotPath, run: str, target: str = "bh") -> Figures | None:
    """The figures of hp's comparison in run, or None when bench.json does
    not hold them (that run, that context or a p99 missing, a zero base;
    no replacement measured for target)."""
    rep = replacement(hp.mech, target)
    if rep is None:
        return None
    new_mech = rep[0]
    try:
        lat = data["runs"][run]["latency"][hp.source]
        base, new = lat[hp.mech], lat[new_mech]
        if not all(isinstance(s.get(k), int) for s in (base, new) for k in ("n", "p50", "p99")):
            return None
        if not base["p99"]:
            return None
        # the pair's ratio over its own base (tasklet_hi for the highpri
        # ones), median of the boots, and its spread (check.bench.verdict)
        v = data.get("verdict", {})
        key, name = f"{run}/{hp.source}", f"{new_mech}_vs_{hp.mech}"
        ratio = v.get("p99_ratios", {}).get(key, {}).get(name)
        if not isinstance(ratio, (int, float)):
            ratio = round(new["p99"] / base["p99"], 3)
        bar = v.get("bar", BAR)
        lo_hi = v.get("spread", {}).get(key, {}).get(name)
        boots = data["runs"][run].get("meta", {}).get("boots", 1)
        spread = (float(lo_hi[0]), float(lo_hi[1])) if isinstance(lo_hi, list) \
            and len(lo_hi) == 2 and isinstance(boots, int) and boots > 1 else None
        return Figures(run, machine(data, run), new, base, float(ratio), float(bar), spread,
                       boots if spread else 1)
    except (KeyError, TypeError, AttributeError):
        return None


def _us(ns: int) -> str:
    return f"{ns / 1000:.1f}us"         # one word: a wrapped line never splits it


def _times(r: float, bar: float) -> str:
    """r with two decimals, three where two would hide which side of bar it is."""
    s = f"{r:.2f}"
    return f"{r:.3f}" if (float(s) <= bar) != (r <= bar) else s


def sentence(bench: Path | dict[str, Any], hp: HotPath, run: str = "x86_64",
             target: str = "bh") -> str:
    """What one run of make bench measured for hp: p50 and p99 of the
    replacement and of the tasklet, their p99 ratio, and whether it is
    within the aim (BH work's p99 at most 1.1 times the tasklet's)."""
    data = _bench(bench) if isinstance(bench, Path) else bench
    f = figures(data, hp, run, target)
    rep = replacement(hp.mech, target)
    if f is None or rep is None:
        raise InputError(f"bench.json: no {hp.mech} latency figures from {hp.source} "
                         f"context for run {run!r}")
    new, base = WORDS[rep[0]], WORDS[hp.mech]
    n = f.new["n"] if f.new["n"] == f.base["n"] else f"{f.new['n']} and {f.base['n']}"
    head = (f"{f.machine}, {n} events each"
            + (f", median of {f.boots} boots" if f.spread else "") + ": "
            f"{new} p50 {_us(f.new['p50'])}, p99 {_us(f.new['p99'])}; {base} p50 "
            f"{_us(f.base['p50'])}, p99 {_us(f.base['p99'])}. ")
    if f.spread is None:
        return (head + f"{new[0].upper() + new[1:]}'s p99 is {_times(f.ratio, f.bar)} times "
                f"the {base}'s: " + ("within" if f.ratio <= f.bar else "this misses")
                + f" the series' aim of at most {f.bar:g} times.")
    # the ratio of each boot, not of the medians above: say which
    lo, hi = f.spread
    said = {"met": "within", "not met": "this misses", "within noise": "within noise of"}
    each = (f"{_times(lo, f.bar)} times" if lo == hi else
            f"{_times(lo, f.bar)} to {_times(hi, f.bar)} times")
    return (head + f"Within each boot, {new}'s p99 was {each} the {base}'s "
            f"({_times(f.ratio, f.bar)} in the median boot): "
            + said[outcome(lo, hi, f.bar)] + f" the series' aim of at most {f.bar:g} times.")


def runs(data: dict[str, Any], hp: HotPath, target: str = "bh") -> list[str]:
    """The runs of bench.json with figures for hp, QEMU first."""
    names = sorted(data.get("runs", {}), key=lambda r: (RUNS.index(r) if r in RUNS
                                                         else len(RUNS), r))
    return [r for r in names if figures(data, hp, r, target) is not None]


def kernel(data: dict[str, Any]) -> str:
    """The kernel make bench ran, as bench.json names it ("" if it does not)."""
    k = data.get("kernel")
    if isinstance(k, str) and k and k != "?":
        return k
    metas = [r.get("meta", {}) for r in data.get("runs", {}).values() if isinstance(r, dict)]
    return next((str(m["release"]) for m in metas if m.get("release")), "")


def command(data: dict[str, Any]) -> str:
    """The command bench.json says reproduced it, with KDIR's local path
    replaced by <linux-VERSION> (as in the cover letter's other commands)."""
    cmd = data.get("command")
    cmd = cmd if isinstance(cmd, str) and cmd.strip() else "make bench"
    k = kernel(data)
    return re.sub(r"KDIR=.*?(?=\s+[A-Z_]+=|$)", f"KDIR=<linux-{k}>" if k else "KDIR=<linux>",
                  cmd.strip())


def not_hardware(data: dict[str, Any], used: list[str]) -> list[str]:
    """The runs of used that bench.json says did not run at hardware speed
    (UML; QEMU on TCG), in words."""
    out = []
    if "um" in used:
        out.append("UML")
    if data.get("accel") == "tcg" and any(r != "um" for r in used):
        out.append("QEMU without KVM")
    return out
