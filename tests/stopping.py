#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Stopping a run in one of its stages, and what must hold after: the
helper of tests/faults.py's stage cases, and by itself the measurement of
the interrupt bar on a real tree:

    PYTHONPATH=scripts python3 tests/stopping.py KDIR WORK [PATHS...]

runs one convert of PATHS into WORK/out (keeping its results in
WORK/cache), then for each stage and each of SIGINT (to the process
group, as Ctrl-C) and SIGTERM (to the tool alone) a convert into the same
OUT, stopped when the stage's own progress line appears (the whole group
is frozen with SIGSTOP at that line, the signal sent, and the group let
go); one line per run with the exit code and the seconds from the signal
to the exit. The runs stopped up to spatch use no cache; those stopped
after it reuse spatch's results (a copy of WORK/cache), and get_maintainer
runs in all but the "series" ones, which reuse its answers too.

Every run carries a token in its environment, so that a process of it is
found after it exited wherever it was reparented.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "scripts")}

# Each stage of make convert and the progress line it starts with.
STAGES = {
    "scan": r"^scanning ",
    "facts": r"^facts: ",
    "sites": r"^sites: planning",
    "spatch": r"^\[1/\d+\] ",
    "classify": r"^classifying ",
    "write": r"^writing all\.patch",
    "get_maintainer": r"asking get_maintainer\.pl",
    "series": r"^series: writing",
}
SIGNALS = {"SIGINT": (signal.SIGINT, 130), "SIGTERM": (signal.SIGTERM, 143)}
LIMIT = 10.0        # seconds from the signal to the exit


def contents(d: Path) -> dict[str, bytes]:
    """Every file of d but run.json (what a run measures: its timings and
    cache counts, which no two runs share, and the tree it read)."""
    out = {}
    for p in sorted(d.rglob("*")):
        if p.is_file() and p.relative_to(d) != Path("run.json"):
            out[str(p.relative_to(d))] = p.read_bytes()
    return out


def _interactive() -> None:
    """SIGINT as in a terminal's job (a runner started with '&' hands its
    children SIGINT ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def left(token: str) -> list[str]:
    """The live processes (not zombies) whose environment holds token."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                env = f.read()
            with open(f"/proc/{name}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
            with open(f"/proc/{name}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")[:80]
        except OSError:
            continue
        if token.encode() in env and state != "Z":
            found.append(f"{name} {cmd}")
    return found


@dataclass
class Stop:
    """What a stopped run did."""
    rc: int | None        # None: it did not end in time
    seconds: float        # from the signal to the exit
    stderr: str
    left: list[str]       # its processes alive after it exited
    reached: bool         # the stage's line appeared before the run ended


def stop_at(args: list[str], cwd: Path, stage: str, sig: int) -> Stop:
    """python3 -m detasklet ARGS, stopped with sig when stage's line appears."""
    token = f"detasklet-faults-{uuid.uuid4().hex}"
    p = subprocess.Popen([sys.executable, "-m", "detasklet", *args], cwd=cwd,
                         env={**ENV, "DETASKLET_FAULTS_RUN": token},
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         start_new_session=True, preexec_fn=_interactive)
    assert p.stderr is not None
    seen: list[str] = []
    reached = False
    for line in p.stderr:
        seen.append(line)
        if re.search(STAGES[stage], line):
            os.killpg(p.pid, signal.SIGSTOP)      # frozen at the stage's line
            reached = True
            break
    start = time.monotonic()
    if reached:
        if sig == signal.SIGINT:
            os.killpg(p.pid, sig)                 # what Ctrl-C does to the job
        else:
            os.kill(p.pid, sig)                   # a kill of the tool alone
        os.killpg(p.pid, signal.SIGCONT)
    try:
        _, rest = p.communicate(timeout=60)
        rc: int | None = p.returncode
    except subprocess.TimeoutExpired:
        rc, rest = None, ""
    took = time.monotonic() - start
    stay = left(token)
    for _ in range(10):             # a SIGKILLed orphan is reaped by init, not at once
        if not stay:
            break
        time.sleep(0.1)
        stay = left(token)
    if rc is None or stay:
        for pid in [s.split()[0] for s in stay]:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except OSError:
                pass
        if rc is None:
            p.kill()
            p.wait()
    return Stop(rc, round(took, 2), "".join(seen) + rest, stay, reached)


def verdict(s: Stop, want_rc: int, out: Path, before: dict[str, bytes]) -> str:
    """'' when the stopped run held: its exit code, time, no traceback, no
    process left, OUT as it was and no scratch folder beside it."""
    if not s.reached:
        return f"the stage's line never came (exit {s.rc}): {s.stderr[-300:]!r}"
    if s.rc is None:
        return "still running 60 s after the signal"
    if s.rc != want_rc:
        return f"exit {s.rc}, want {want_rc}: {s.stderr[-300:]!r}"
    if s.seconds > LIMIT:
        return f"took {s.seconds} s to stop"
    if "Traceback" in s.stderr:
        return f"a traceback: {s.stderr[s.stderr.index('Traceback'):][:300]!r}"
    if s.left:
        return f"processes left: {s.left[:3]}"
    if contents(out) != before:
        return "OUT changed"
    stray = [p.name for p in out.parent.glob(f"{out.name}.*.incomplete")]
    return f"scratch folder left: {stray}" if stray else ""


def cache_for(stage: str, work: Path) -> list[str]:
    """The cache arguments of a run stopped in stage (see the docstring)."""
    order = list(STAGES)
    if order.index(stage) <= order.index("spatch"):
        return ["--no-cache"]
    copy = work / "cache-copy"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(work / "cache", copy)
    if stage != "series":
        shutil.rmtree(copy / "get_maintainer", ignore_errors=True)
    return ["--cache", str(copy)]


def measure(kdir: Path, work: Path, paths: list[str]) -> int:
    """The interrupt bar on a real tree (see the module's docstring)."""
    out = work / "out"
    args = ["convert", str(kdir), *paths, "-o", str(out)]
    if not (out / "report.json").is_file():
        subprocess.run([sys.executable, "-m", "detasklet", *args, "-q", "--cache",
                        str(work / "cache")], cwd=work, env=ENV, check=True)
    bad = 0
    for stage in STAGES:
        for name, (sig, want) in SIGNALS.items():
            before = contents(out)
            s = stop_at([*args, *cache_for(stage, work)], work, stage, sig)
            err = verdict(s, want, out, before)
            bad += bool(err)
            print(f"{'FAIL' if err else 'ok  '} {stage} {name}: exit {s.rc} in {s.seconds} s"
                  f"{', ' + err if err else ''}", flush=True)
    print(f"{2 * len(STAGES) - bad} passed, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: tests/stopping.py KDIR WORK [PATHS...]")
    Path(sys.argv[2]).mkdir(parents=True, exist_ok=True)
    sys.exit(measure(Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve(), sys.argv[3:]))
