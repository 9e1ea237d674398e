# SPDX-License-Identifier: GPL-2.0-only
"""make runtime-bench (runtime --rounds N): the links' figures, pristine
against converted, over N rounds.

Each round boots both kernels once with the same initramfs (the order
alternates: pristine first in even rounds, converted first in odd ones, so
a drift of the machine's load falls on both); every figure of the
throughput (`*_mbit`, `*_mb_s`) and latency (`*_p99_ms`, `*_avg_ms`)
kinds that both boots of a round printed gives that round's ratio
converted / pristine. OUT/bench/runtime-bench.json (beside make bench's
bench.json) has every round's figures, each figure's median per kernel, the
median of the rounds' ratios and their [min, max] spread; each boot's
serial log is OUT/bench/runtime/<kernel>.<round>.log.
"""

from __future__ import annotations

import json
import logging
import statistics
import time
from pathlib import Path

from . import qemu, results

log = logging.getLogger("detasklet")

KINDS = ("_mbit", "_mb_s", "_p99_ms", "_avg_ms")
HIGHER_IS_BETTER = ("_mbit", "_mb_s")


def bench_figures(run: results.Run) -> dict[str, float]:
    """workload.figure -> value, for the figures of the benchmark's kinds of
    the workloads that passed in this boot."""
    out = {}
    for name, s in run.workloads.items():
        if s.status != "pass":
            continue
        for k, v in s.figures.items():
            if k.endswith(KINDS):
                try:
                    out[f"{name}.{k}"] = float(v)
                except ValueError:
                    continue
    return out


def ratios(rounds: list[dict[str, dict[str, float]]]) -> dict[str, dict]:
    """figure -> its medians per kernel, the median of the rounds' ratios
    (converted / pristine), their [min, max], and how many rounds had it."""
    keys = sorted({k for r in rounds for k in r.get("pristine", {})}
                  & {k for r in rounds for k in r.get("converted", {})})
    out = {}
    for k in keys:
        pairs = [(r["pristine"][k], r["converted"][k]) for r in rounds
                 if k in r.get("pristine", {}) and k in r.get("converted", {})]
        rs = [c / p for p, c in pairs if p > 0]
        if not rs:
            continue
        out[k] = {"pristine_median": statistics.median(p for p, _ in pairs),
                  "converted_median": statistics.median(c for _, c in pairs),
                  "ratio_median": round(statistics.median(rs), 3),
                  "spread": [round(min(rs), 3), round(max(rs), 3)],
                  "rounds": len(rs),
                  "better": "higher" if k.endswith(HIGHER_IS_BETTER) else "lower"}
    return out


def run_rounds(n: int, images: dict[str, Path], initrd: Path, disk: Path | None,
               bdir: Path, workloads: list[str], mem_mb: int, cpus: int,
               timeout: int) -> list[dict]:
    """n rounds of one boot per kernel; each round's figures and statuses."""
    bdir.mkdir(parents=True, exist_ok=True)
    rounds = []
    for i in range(n):
        order = list(images) if i % 2 == 0 else list(reversed(list(images)))
        rnd: dict = {"round": i + 1, "order": order, "status": {}}
        for k in order:
            t0 = time.monotonic()
            cmd = qemu.command(images[k], initrd, disk, mem_mb, cpus)
            logf = bdir / f"{k}.{i + 1}.log"
            b = qemu.boot(cmd, logf, timeout, label=f"{k}#{i + 1}")
            run = results.parse(logf.read_text(errors="replace"), workloads)
            rnd[k] = bench_figures(run)
            rnd["status"][k] = {w: s.status for w, s in run.workloads.items()}
            log.info(f"bench round {i + 1}/{n}: {k} booted and ran in "
                     f"{time.monotonic() - t0:.0f} s{' (timeout)' if b.timed_out else ''}")
        rounds.append(rnd)
    return rounds


def write(out: Path, doc: dict) -> str:
    """OUT/bench/runtime-bench.json and the table (returned)."""
    dest = out / "bench" / "runtime-bench.json"
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(json.dumps(doc, indent=1) + "\n")
    lines = [f"make runtime-bench: Linux {doc['kernel']}, QEMU ({doc['accel'].upper()}), "
             f"{doc['rounds']} rounds; converted / pristine, median [min, max]", ""]
    for k, r in doc["ratios"].items():
        lines.append(f"  {k:28} {r['ratio_median']:6.3f} [{r['spread'][0]:.3f}, "
                     f"{r['spread'][1]:.3f}]  pristine {r['pristine_median']:g}, converted "
                     f"{r['converted_median']:g} ({r['better']} is better, "
                     f"{r['rounds']} rounds)")
    lines.append(f"\n{dest}")
    return "\n".join(lines) + "\n"
