# SPDX-License-Identifier: GPL-2.0-only
"""make bench, the reading half: the `bench:` KTAP diagnostic lines of the
detasklet_bench KUnit suite (tests/kunit/detasklet_bench.c), as kunit.py
wrote them to its test.log, turned into OUT/bench/bench.json, a table on the
terminal and (check/bench_plot.py) OUT/bench/latency.png.

Every figure is kept with its ratio to the tasklet of the same run (the same
boot): absolute times under UML or QEMU/TCG say little, ratios say how a
mechanism compares on the same machine at the same moment."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any

from ..errors import InputError, OutError

log = logging.getLogger("detasklet")

MECHS = ("tasklet", "bh", "bh_highpri", "tasklet_hi", "percpu")
BASE = "tasklet"
BAR = 1.1           # BH work's p99 latency within 1.1x of the tasklet's
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
    throughput[mech], wakeup[mech or "none"]."""
    run: Run = {"meta": {}, "latency": {}, "cost": {}, "throughput": {}, "wakeup": {}}
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
    out: dict[str, Any] = {"latency": {}, "cost": {}, "throughput": {}, "wakeup": {}}
    for src, by_mech in run["latency"].items():
        base = by_mech[BASE]
        out["latency"][src] = {m: {k: _ratio(s[k], base[k]) for k in ("p50", "p99", "max")}
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


def verdict(runs: dict[str, Run], rat: dict[str, Any]) -> dict[str, Any]:
    """BH work's p99 schedule-to-run latency over the tasklet's (and highpri
    BH over tasklet_hi), per run and source, against the 1.1x bar."""
    pairs = {}
    for where, run in runs.items():
        for src, by_mech in run["latency"].items():
            bh = rat[where]["latency"][src].get("bh", {}).get("p99")
            hi = by_mech.get("bh_highpri", {}).get("p99")
            thi = by_mech.get("tasklet_hi", {}).get("p99")
            pairs[f"{where}/{src}"] = {"bh_vs_tasklet": bh,
                                       "bh_highpri_vs_tasklet_hi": _ratio(hi, thi)
                                       if hi is not None and thi else None}
    worst = max((v for p in pairs.values() for v in p.values() if v is not None), default=None)
    return {"bar": BAR, "p99_ratios": pairs, "worst": worst,
            "within_bar": worst is not None and worst <= BAR}


ACCELS = ("tcg", "kvm", "")


def build(logs: dict[str, Path], command: str, kernel: str, accel: str = "") -> dict[str, Any]:
    """bench.json's content from kunit.py's test.log of each run; accel:
    what QEMU ran on (tcg, kvm; "" not known), kept when there is a QEMU run."""
    runs: dict[str, Run] = {}
    for where, path in logs.items():
        try:
            lines = path.read_text(errors="replace").splitlines()
        except OSError as e:
            raise InputError(f"cannot read {path}: {e.strerror}") from None
        runs[where] = run_from_records(parse_lines(lines), str(path))
    rat = {where: ratios(run) for where, run in runs.items()}
    out = {"kernel": kernel, "command": command, "base": BASE, "mechanisms": list(MECHS),
           "runs": runs, "ratios": rat, "verdict": verdict(runs, rat)}
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
        head = (f"{'mechanism':<11} {'proc p50 us':>14} {'proc p99 us':>14} {'irq p99 us':>14} "
                f"{'sched ns':>12} {'run ns':>12} {'cb/s 1cpu':>16} {'cb/s all':>16} "
                f"{'FIFO p99 us':>16} {'FIFO max us':>16}")
        out += [head, "-" * len(head)]
        for m in ("none", *MECHS):
            if m == "none":
                w = run["wakeup"].get("none")
                if w:
                    out.append(f"{'(no flood)':<11} {'':>14} {'':>14} {'':>14} {'':>12} {'':>12} "
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
                f"{m:<11}",
                f"{cell(lp.get('p50'), rp.get('p50'), _us):>14}",
                f"{cell(lp.get('p99'), rp.get('p99'), _us):>14}",
                f"{cell(lh.get('p99'), rh.get('p99'), _us):>14}",
                f"{cell(c.get('sched_ns'), rc.get('sched_ns')):>12}",
                f"{cell(c.get('run_ns'), rc.get('run_ns')):>12}",
                f"{cell(t.get('one_cpu_per_s'), rt.get('one_cpu_per_s')):>16}",
                f"{cell(t.get('all_cpus_per_s'), rt.get('all_cpus_per_s')):>16}",
                f"{cell(w.get('p99'), rw.get('p99'), _us):>16}",
                f"{cell(w.get('max'), rw.get('max'), _us):>16}"]))
        out.append("")
    v = data["verdict"]
    for key, p in v["p99_ratios"].items():
        out.append(f"p99 schedule-to-run, {key}: bh/tasklet {_x(p['bh_vs_tasklet'])}, "
                   f"bh_highpri/tasklet_hi {_x(p['bh_highpri_vs_tasklet_hi'])}")
    if v["worst"] is not None:
        out.append(f"bar {v['bar']}x: {'met' if v['within_bar'] else 'NOT met'} "
                   f"(worst {v['worst']:.2f}x)")
    out.append(f"reproduce: {data['command']}")
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
    by_where: dict[str, Path] = {}
    for item in logs:
        where, sep, path = item.partition("=")
        if not sep or not where or not path:
            raise InputError(f"--log {item!r}: expected WHERE=PATH (um=OUT/bench/um.log)")
        by_where[where] = Path(path)
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
