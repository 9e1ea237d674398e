# SPDX-License-Identifier: GPL-2.0-only
"""OUT/bench/latency.png from bench.json's content, with gnuplot (installed
by make bench through scripts/apt-install.sh).  Two panels a person reads at
a glance: the p99 schedule-to-run latency of each mechanism over the
tasklet's of the same boot (1.0 and the 1.1 bar drawn), and the p99
wake-up latency of a SCHED_FIFO thread while each mechanism floods its CPU
with 50 us callbacks.  The gnuplot script and its data are kept beside the
picture (latency.gp, latency.dat, wakeup.dat) so the figure can be redrawn."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from .. import proc
from ..errors import OutError, ToolError
from .bench import BAR, BASE, MECHS

OTHERS = [m for m in MECHS if m != BASE]


def latency_rows(data: dict[str, Any]) -> list[str]:
    """One line per (run, source): a label, then each other mechanism's p99
    ratio over the tasklet's."""
    rows = []
    for where, run in data["runs"].items():
        for src, by_mech in run["latency"].items():
            rat = data["ratios"][where]["latency"][src]
            base_us = by_mech[BASE]["p99"] / 1000
            label = f"{where} {src}\\n(tasklet {base_us:.1f} us)"
            vals = [str(rat.get(m, {}).get("p99") or "NaN") for m in OTHERS]
            rows.append(f'"{label}" ' + " ".join(vals))
    return rows


def wakeup_rows(data: dict[str, Any]) -> list[str]:
    """One line per run: the FIFO thread's p99 wake-up latency with no flood,
    then under each mechanism's flood, over its p99 under the tasklet's."""
    rows = []
    for where, run in data["runs"].items():
        base = run["wakeup"].get(BASE, {}).get("p99")
        vals = [run["wakeup"].get(m, {}).get("p99") for m in ("none", *MECHS)]
        label = f"{where}\\n(tasklet flood {base / 1000:.0f} us)" if base else where
        rows.append(f'"{label}" ' + " ".join("NaN" if v is None or not base
                                             else f"{v / base:.4g}" for v in vals))
    return rows


def _label(m: str) -> str:
    """A mechanism's name in the key; the unguarded item is a reference."""
    return f"{m} (reference)" if m == "percpu_noguard" else m


def script(title: str) -> str:
    """The gnuplot program, reading latency.dat and wakeup.dat beside it."""
    lat_cols = ", ".join(f"'latency.dat' using {i + 2}:xtic(1) title '{_label(m)}'"
                         for i, m in enumerate(OTHERS))
    wk = ("none", *MECHS)
    wk_cols = ", ".join(f"'wakeup.dat' using {i + 2}:xtic(1) title '{_label(m)}'"
                        for i, m in enumerate(wk))
    return f"""set terminal pngcairo size 1400,620 font 'Sans,10'
set output 'latency.png'
set termoption noenhanced
set bmargin 4
set multiplot layout 1,2 title "{title}"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set key top left
set grid ytics
set logscale y
set title 'p99 schedule-to-run latency / tasklet (median over the boots of each boot ratio; lower is better)'
set ylabel 'ratio to the tasklet (log)'
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lc 'black' lw 2
set arrow 2 from graph 0, first {BAR} to graph 1, first {BAR} nohead dt 2 lc 'red' lw 2
set label 1 '{BAR}x bar' at graph 0.01, first {BAR * 1.05} tc 'red'
plot {lat_cols}
unset arrow 1
unset arrow 2
unset label 1
set title 'SCHED_FIFO thread wake-up p99 while each floods its CPU with 50 us callbacks'
set ylabel 'ratio to the tasklet flood (log; none = no flood)'
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lc 'black' lw 2
plot {wk_cols}
unset multiplot
"""


def plot(data: dict[str, Any], out_dir: Path) -> Path:
    """Write latency.png (and its script and data) into out_dir."""
    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        raise ToolError("gnuplot not found (make bench installs it: scripts/apt-install.sh gnuplot-nox)")
    title = f"detasklet bench, Linux {data['kernel']}: {data['command']}"
    try:
        (out_dir / "latency.dat").write_text("\n".join(latency_rows(data)) + "\n")
        (out_dir / "wakeup.dat").write_text("\n".join(wakeup_rows(data)) + "\n")
        (out_dir / "latency.gp").write_text(script(title.replace('"', "'")))
    except OSError as e:
        raise OutError(f"cannot write into {out_dir}: {e.strerror}") from None
    res = proc.run([gnuplot, "latency.gp"], cwd=out_dir)
    if res.rc != 0:
        last = (res.stderr.strip().splitlines() or ["?"])[-1]
        raise ToolError(f"gnuplot failed on {out_dir}/latency.gp: {last}")
    return out_dir / "latency.png"
