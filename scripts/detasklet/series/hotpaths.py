"""Hot paths (series/hotpaths.toml) and the sentence a cover letter quotes
for them: the p99 schedule-to-run latency of the replacement over the
tasklet's, as make bench measured it (OUT/bench/bench.json), and the
command that reproduced it."""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError

TABLE = Path(__file__).with_name("hotpaths.toml")
REPLACEMENT = {"tasklet": ("bh", "system_bh_wq"),
               "tasklet_hi": ("bh_highpri", "system_bh_highpri_wq")}


@dataclass(frozen=True)
class HotPath:
    name: str
    paths: tuple[str, ...]
    mech: str
    source: str

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
            hp = HotPath(str(h["name"]), tuple(h["paths"]), str(h["mech"]), str(h["source"]))
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


def _bench(bench_json: Path) -> dict[str, Any]:
    try:
        return json.loads(bench_json.read_text())
    except (OSError, ValueError) as e:
        raise InputError(f"cannot read {bench_json}: {e}") from None


def sentence(bench_json: Path, hotpath: HotPath, run: str = "x86_64") -> str:
    """One sentence for a cover letter: the measured p99 ratio of the
    replacement over the tasklet, from hotpath's source, in the given run of
    bench.json (x86_64: QEMU with 2+ CPUs; um: UML), with the command."""
    data = _bench(bench_json)
    mech, wq = REPLACEMENT[hotpath.mech]
    try:
        lat = data["runs"][run]["latency"][hotpath.source]
        base, new = lat[hotpath.mech], lat[mech]
        cpus = data["runs"][run]["meta"].get("cpus", "?")
    except KeyError as e:
        raise InputError(f"{bench_json}: no {e} figures for run {run!r}") from None
    if not base.get("p99"):
        raise InputError(f"{bench_json}: the {hotpath.mech} p99 of run {run!r} is zero")
    ratio = new["p99"] / base["p99"]
    where = "UML" if run == "um" else f"QEMU {run}, {cpus} CPUs"
    return (f"For {hotpath.name}, queueing on {wq} from {hotpath.source} context had a "
            f"p99 schedule-to-run latency {ratio:.2f} times that of {hotpath.mech}_schedule"
            f"() in the same boot ({new['p99'] / 1000:.1f} us against "
            f"{base['p99'] / 1000:.1f} us over {new.get('n', '?')} events, Linux "
            f"{data.get('kernel', '?')}, {where}; reproduce with: {data.get('command', 'make bench')}).")
