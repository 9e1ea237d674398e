# SPDX-License-Identifier: GPL-2.0-only
"""make bench, the reading half: the `bench:` KTAP diagnostic lines of the
detasklet_bench KUnit suite (tests/kunit/detasklet_bench.c), as kunit.py
wrote them to its test.log, turned into OUT/bench/bench.json, a table on the
terminal and (check/bench_plot.py) OUT/bench/latency.png.

Every figure is kept with its ratio to the tasklet of the same run (the same
boot): absolute times under UML or QEMU/TCG say little, ratios say how a
mechanism compares on the same machine at the same moment. A run of several
boots (make bench BENCH_BOOTS=N, one test.log each) keeps each boot's
figures ("boots"); "runs" holds the median of each figure over the boots,
"ratios" the median of each boot's ratio and "spread" their [min, max], and
the verdict is "within noise" where that spread covers the bar."""

from __future__ import annotations

import json
import logging
import re
import statistics
from pathlib import Path
from typing import Any

from ..errors import InputError, OutError

log = logging.getLogger("detasklet")

# percpu and highpri: the process-context workqueues TARGET=thread queues on,
# with the callback behind the local_bh_disable() guard the tool writes;
# percpu_noguard: the same without the guard, a reference the tool never writes
MECHS = ("tasklet", "bh", "bh_highpri", "tasklet_hi", "percpu", "highpri", "percpu_noguard")
BASE = "tasklet"
BAR = 1.1           # BH work's p99 latency within 1.1x of the tasklet's
# verdict pairs: (name, mechanism, its base); the bar is about the BH ones
PAIRS = (("bh_vs_tasklet", "bh", "tasklet"),
         ("bh_highpri_vs_tasklet_hi", "bh_highpri", "tasklet_hi"),
         ("percpu_vs_tasklet", "percpu", "tasklet"),
         ("highpri_vs_tasklet_hi", "highpri", "tasklet_hi"))
BAR_PAIRS = ("bh_vs_tasklet", "bh_highpri_vs_tasklet_hi")
LINE = re.compile(r"#\s+(?P<case>\w+):\s+bench:\s+(?P<rest>.*)$")
PAIR = re.compile(r"(\w+)=(\S+)")

Run = dict[str, Any]


def _value(text: str) -> int | str:
    return int(text) if re.fullmatch(r"-?\d+", text) else text


def parse_lines(lines: list[str]) -> list[dict[str, int | str]]:
    """The key=value records of every `bench:` line, in order."""
    out = []
    for line in lines:
        m = LINE.search(line)
        if m:
            out.append({k: _value(v) for k, v in PAIR.findall(m["rest"])})
    return out


def _stats(rec: dict[str, int | str]) -> dict[str, int]:
    return {k: int(rec[k]) for k in ("n", "p50", "p99", "max") if k in rec}


def run_from_records(records: list[dict[str, int | str]], where: str) -> Run:
    """One boot's figures: meta, latency[src][mech], cost[mech],
    throughput[mech], wakeup[mech or "none"], burst[label][mech] (a suite
    older than the bursts has none)."""
    run: Run = {"meta": {}, "latency": {}, "cost": {}, "throughput": {}, "wakeup": {},
                "burst": {}}
    for rec in records:
        kind = rec.get("kind")
        if kind == "meta":
            run["meta"] = {k: v for k, v in rec.items() if k != "kind"}
        elif kind == "latency":
            run["latency"].setdefault(str(rec["src"]), {})[str(rec["mech"])] = _stats(rec)
        elif kind == "cost":
            run["cost"][str(rec["mech"])] = {"sched_ns": int(rec["sched_ns"]),
                                             "run_ns": int(rec["run_ns"])}
        elif kind == "throughput":
            run["throughput"][str(rec["mech"])] = {
                "one_cpu_per_s": int(rec["one_cpu_per_s"]),
                "all_cpus_per_s": int(rec["all_cpus_per_s"]), "cpus": int(rec["cpus"])}
        elif kind == "wakeup":
            run["wakeup"][str(rec["mech"])] = {**_stats(rec),
                                               "flood_runs": int(rec.get("flood_runs", 0))}
        elif kind == "burst":
            run["burst"].setdefault(str(rec["label"]), {})[str(rec["mech"])] = {
                **_stats(rec), "burst": int(rec["burst"]), "ksoftirqd": int(rec["ksoftirqd"])}
    missing = [part for part in ("latency", "cost", "throughput", "wakeup") if not run[part]]
    if missing:
        raise InputError(f"{where}: no bench lines for {', '.join(missing)} "
                         "(the suite did not run to its end?)")
    for src, by_mech in run["latency"].items():
        if BASE not in by_mech or not by_mech[BASE].get("n"):
            raise InputError(f"{where}: no {BASE} latency from {src}: nothing to compare with")
    return run


def _ratio(x: float, base: float) -> float | None:
    return round(x / base, 3) if base else None


def ratios(run: Run) -> dict[str, Any]:
    """Each figure of each mechanism over the tasklet's in the same run."""
    out: dict[str, Any] = {"latency": {}, "cost": {}, "throughput": {}, "wakeup": {},
                           "burst": {}}
    for part in ("latency", "burst"):
        for key, by_mech in run.get(part, {}).items():
            base = by_mech.get(BASE)
            if not base or not base.get("n"):
                continue
            out[part][key] = {m: {k: _ratio(s[k], base[k]) for k in ("p50", "p99", "max")}
                              for m, s in by_mech.items() if s.get("n")}
    base = run["cost"].get(BASE)
    if base:
        out["cost"] = {m: {k: _ratio(c[k], base[k]) for k in ("sched_ns", "run_ns")}
                       for m, c in run["cost"].items()}
    base = run["throughput"].get(BASE)
    if base:
        out["throughput"] = {m: {k: _ratio(t[k], base[k])
                                 for k in ("one_cpu_per_s", "all_cpus_per_s")}
                             for m, t in run["throughput"].items()}
    base = run["wakeup"].get(BASE)
    if base:
        out["wakeup"] = {m: {k: _ratio(w[k], base[k]) for k in ("p99", "max")}
                         for m, w in run["wakeup"].items()}
    return out


def _combine(items: list[Any], leaf: Any) -> Any:
    """The nested dicts of items (same shape) with leaf(values) at each
    numeric leaf (the values the items have there, None left out); other
    leaves are the first item's."""
    first = items[0]
    if isinstance(first, dict):
        keys = list(dict.fromkeys(k for it in items if isinstance(it, dict) for k in it))
        return {k: _combine([it[k] for it in items if isinstance(it, dict) and k in it], leaf)
                for k in keys}
    nums = [v for v in items if isinstance(v, (int, float)) and not isinstance(v, bool)]
    return leaf(nums) if nums else first


def _median(vals: list[float]) -> float:
    """The median; a whole number for whole numbers (ns, counts), else to
    three decimals (ratios)."""
    m = statistics.median(vals)
    return int(round(m)) if all(isinstance(v, int) for v in vals) else round(m, 3)


def _spread(vals: list[float]) -> list[float]:
    return [min(vals), max(vals)]


def outcome(lo: float, hi: float, bar: float = BAR) -> str:
    """met: every boot within the bar; not met: none; within noise: the
    spread of the boots covers it."""
    return "met" if hi <= bar else "not met" if lo > bar else "within noise"


def _pair(run: Run, rat: dict[str, Any], src: str, mech: str, base: str) -> float | None:
    if base == BASE:
        return rat["latency"][src].get(mech, {}).get("p99")
    by_mech = run["latency"][src]
    new, old = by_mech.get(mech, {}).get("p99"), by_mech.get(base, {}).get("p99")
    return _ratio(new, old) if new is not None and old else None


def verdict(boots: dict[str, list[Run]], rats: dict[str, list[dict[str, Any]]]
            ) -> dict[str, Any]:
    """Each pair's p99 schedule-to-run ratio (BH work over the tasklet,
    highpri BH over tasklet_hi, and the guarded process-context items of
    TARGET=thread over the same), per run and source: the median over the
    boots, the [min, max] spread, and its outcome against the 1.1x bar."""
    pairs: dict[str, dict[str, float | None]] = {}
    spread: dict[str, dict[str, list[float]]] = {}
    outcomes: dict[str, dict[str, str]] = {}
    for where, runs in boots.items():
        for src in runs[0]["latency"]:
            key = f"{where}/{src}"
            pairs[key], spread[key], outcomes[key] = {}, {}, {}
            for name, mech, base in PAIRS:
                vals = [v for run, rat in zip(runs, rats[where])
                        if (v := _pair(run, rat, src, mech, base)) is not None]
                pairs[key][name] = _median(vals) if vals else None
                if vals:
                    spread[key][name] = _spread(vals)
                    outcomes[key][name] = outcome(*_spread(vals))
    bar = [o[n] for o in outcomes.values() for n in BAR_PAIRS if n in o]
    worst = max((v for p in pairs.values() for n in BAR_PAIRS if (v := p.get(n)) is not None),
                default=None)
    overall = ("not met" if "not met" in bar else "within noise" if "within noise" in bar
               else "met" if bar else "no figures")
    return {"bar": BAR, "boots": {w: len(r) for w, r in boots.items()}, "p99_ratios": pairs,
            "spread": spread, "outcomes": outcomes, "outcome": overall, "worst": worst,
            "within_bar": overall == "met"}


ACCELS = ("tcg", "kvm", "")


def _read(path: Path) -> Run:
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}") from None
    return run_from_records(parse_lines(lines), str(path))


def build(logs: dict[str, Path | list[Path]], command: str, kernel: str, accel: str = ""
          ) -> dict[str, Any]:
    """bench.json's content from kunit.py's test.log of each boot of each
    run; accel: what QEMU ran on (tcg, kvm; "" not known), kept when there
    is a QEMU run."""
    boots = {where: [_read(p) for p in (paths if isinstance(paths, list) else [paths])]
             for where, paths in logs.items()}
    per_boot = {where: [ratios(run) for run in runs] for where, runs in boots.items()}
    runs: dict[str, Run] = {}
    for where, rs in boots.items():
        runs[where] = _combine(rs, _median)
        runs[where]["meta"] = {**rs[0]["meta"], "boots": len(rs)}
    rat = {where: _combine(rs, _median) for where, rs in per_boot.items()}
    out = {"kernel": kernel, "command": command, "base": BASE, "mechanisms": list(MECHS),
           "runs": runs, "ratios": rat,
           "spread": {where: _combine(rs, _spread) for where, rs in per_boot.items()},
           "boots": boots, "verdict": verdict(boots, per_boot)}
    if accel and any(w != "um" for w in runs):
        out["accel"] = accel
    return out


def _us(ns: float) -> str:
    return f"{ns / 1000:.1f}"


def _x(r: float | None) -> str:
    return "-" if r is None else f"{r:.2f}x"


def table(data: dict[str, Any]) -> list[str]:
    """The terminal table: per run, each mechanism's figures and ratios."""
    out = []
    for where, run in data["runs"].items():
        rat = data["ratios"][where]
        meta = run["meta"]
        out.append(f"== {where}: Linux {meta.get('release', '?')}, {meta.get('cpus', '?')} CPU(s), "
                   f"preempt={meta.get('preempt', '?')}, percpu={meta.get('percpu_wq', '?')} "
                   f"(ratios: over the tasklet, same boot)")
        head = (f"{'mechanism':<14} {'proc p50 us':>14} {'proc p99 us':>14} {'irq p99 us':>14} "
                f"{'sched ns':>12} {'run ns':>12} {'cb/s 1cpu':>16} {'cb/s all':>16} "
                f"{'FIFO p99 us':>16} {'FIFO max us':>16}")
        out += [head, "-" * len(head)]
        for m in ("none", *MECHS):
            if m == "none":
                w = run["wakeup"].get("none")
                if w:
                    out.append(f"{'(no flood)':<14} {'':>14} {'':>14} {'':>14} {'':>12} {'':>12} "
                               f"{'':>16} {'':>16} {_us(w['p99']):>16} {_us(w['max']):>16}")
                continue
            lp = run["latency"].get("process", {}).get(m, {})
            lh = run["latency"].get("hardirq", {}).get(m, {})
            rp = rat["latency"].get("process", {}).get(m, {})
            rh = rat["latency"].get("hardirq", {}).get(m, {})
            c, rc = run["cost"].get(m, {}), rat["cost"].get(m, {})
            t, rt = run["throughput"].get(m, {}), rat["throughput"].get(m, {})
            w, rw = run["wakeup"].get(m, {}), rat["wakeup"].get(m, {})

            def cell(v: Any, r: float | None, fmt: Any = str) -> str:
                return "-" if v is None else f"{fmt(v)} {_x(r)}"
            out.append(" ".join([
                f"{m:<14}",
                f"{cell(lp.get('p50'), rp.get('p50'), _us):>14}",
                f"{cell(lp.get('p99'), rp.get('p99'), _us):>14}",
                f"{cell(lh.get('p99'), rh.get('p99'), _us):>14}",
                f"{cell(c.get('sched_ns'), rc.get('sched_ns')):>12}",
                f"{cell(c.get('run_ns'), rc.get('run_ns')):>12}",
                f"{cell(t.get('one_cpu_per_s'), rt.get('one_cpu_per_s')):>16}",
                f"{cell(t.get('all_cpus_per_s'), rt.get('all_cpus_per_s')):>16}",
                f"{cell(w.get('p99'), rw.get('p99'), _us):>16}",
                f"{cell(w.get('max'), rw.get('max'), _us):>16}"]))
        out += extra_lines(run, rat)
        out.append("")
    out += verdict_lines(data["verdict"])
    out.append(f"reproduce: {data['command']}")
    return out


def extra_lines(run: Run, rat: dict[str, Any]) -> list[str]:
    """The other sources' p99 latency (softirq, spin_lock_bh() section, CFS
    load) and the bursts (p50 to the last callback: of 100 bursts, p99 is
    the slowest one; how many ended in ksoftirqd), each with its ratio to the
    tasklet."""
    out = []
    for src, by_mech in run["latency"].items():
        if src in ("process", "hardirq"):
            continue
        cells = [f"{m} {_us(s['p99'])} {_x(rat['latency'].get(src, {}).get(m, {}).get('p99'))}"
                 for m, s in by_mech.items() if s.get("n")]
        out.append(f"p99 us from {src}: " + " | ".join(cells))
    for label, by_mech in run.get("burst", {}).items():
        first: dict = next(iter(by_mech.values()), {})
        n = first.get("burst", "?")
        cells = [f"{m} {_us(s['p50'])} {_x(rat['burst'].get(label, {}).get(m, {}).get('p50'))}"
                 f" ksoftirqd {s['ksoftirqd']}/{s['n']}" for m, s in by_mech.items() if s.get("n")]
        out.append(f"burst {label} ({n} items), p50 us to the last: " + " | ".join(cells))
    return out


def verdict_lines(v: dict[str, Any]) -> list[str]:
    """Each pair's median p99 ratio with its spread over the boots and its
    outcome, then the bar's."""
    out = []
    boots = ", ".join(f"{w} {n}" for w, n in v.get("boots", {}).items())
    out.append(f"p99 schedule-to-run ratios: median of the boots ({boots}), [min-max], "
               f"against the {v['bar']}x bar")
    for key, p in v["p99_ratios"].items():
        cells = []
        for name, mech, base in PAIRS:
            lo_hi = v["spread"].get(key, {}).get(name)
            if p.get(name) is None or lo_hi is None:
                continue
            cells.append(f"{mech}/{base} {_x(p[name])} [{lo_hi[0]:.2f}-{lo_hi[1]:.2f}] "
                         f"{v['outcomes'][key][name]}")
        out.append(f"  {key}: " + "; ".join(cells))
    if v["worst"] is not None:
        out.append(f"bar {v['bar']}x (BH work over the tasklet): {v['outcome'].upper()} "
                   f"(worst median {v['worst']:.2f}x)")
    return out


def write(data: dict[str, Any], out_dir: Path) -> Path:
    """OUT/bench/bench.json, written to a temporary name and renamed."""
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        path = out_dir / "bench.json"
        tmp = out_dir / ".bench.json.tmp"
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        tmp.replace(path)
    except OSError as e:
        raise OutError(f"cannot write {out_dir}/bench.json: {e.strerror}") from None
    return path


def main(logs: list[str], out_dir: Path, command: str, kernel: str, plot: bool = True,
         accel: str = "") -> int:
    """detasklet bench --log WHERE=test.log ... -o OUT/bench."""
    if accel not in ACCELS:
        raise InputError(f"--accel {accel!r}: expected tcg or kvm")
    by_where: dict[str, Path | list[Path]] = {}
    for item in logs:
        where, sep, path = item.partition("=")
        if not sep or not where or not path:
            raise InputError(f"--log {item!r}: expected WHERE=PATH (um=OUT/bench/um.log)")
        prev = by_where.get(where, [])
        by_where[where] = [*(prev if isinstance(prev, list) else [prev]), Path(path)]
    if not by_where:
        raise InputError("no --log given: nothing to read")
    data = build(by_where, command, kernel, accel)
    print("\n".join(table(data)))
    written = write(data, out_dir)
    log.info(f"wrote {written}")
    if plot:
        from .bench_plot import plot as draw
        log.info(f"wrote {draw(data, out_dir)}")
    return 0
