# SPDX-License-Identifier: GPL-2.0-only
"""make runtime: build the pristine and the converted kernel, boot each
under QEMU with the same initramfs, run the workloads, compare.

Results in OUT/runtime/: runtime.json, the table (table.txt, also printed),
each kernel's whole serial log (pristine.log, converted.log) and each
workload's slice of it (<kernel>/<workload>.log).
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from ...ctext.workcb import converted_callbacks
from ...errors import InputError
from ...kdir import kernel_version
from ...series.evidence import patch_ids
from . import bench, initramfs, kbuild, qemu, results
from .annotate import annotate_report
from .report import summarize, table
from .workloads import Workload, by_name

log = logging.getLogger("detasklet")

PROJ = Path(__file__).resolve().parents[4]
RT = PROJ / "scripts" / "runtime"
TESTS = PROJ / "tests" / "runtime"
KERNELS = ("pristine", "converted")


@dataclass
class Options:
    kdir: Path
    out: Path
    build_dir: Path
    workloads: list[str]
    kernels: list[str]
    jobs: int
    cc: str
    timeout: int
    mem_mb: int = 1024
    cpus: int = 2
    disk_mb: int = 256
    command: str = "make runtime"
    from_logs: bool = False
    rounds: int = 0                 # > 0: make runtime-bench (bench.py)
    # sha256 of OUT's all.patch and tasklet-free.patch the converted kernel
    # is built from, set by run(): a mail quotes a record only of OUT's patches
    patches: dict[str, str] = field(default_factory=dict)


def functions(out: Path) -> dict[str, list[str]]:
    """file -> converted functions to profile: the work callbacks all.patch
    defines, then the functions of report.json's sites (where the tasklet
    API was called)."""
    fns = converted_callbacks((out / "all.patch").read_text(errors="replace"))
    rep = json.loads((out / "report.json").read_text())
    for f in rep.get("files", []):
        if f.get("status") != "converted":
            continue
        lst = fns.setdefault(f["path"], [])
        for s in f.get("sites", []):
            fn = s.get("function") or ""
            if fn and fn not in lst:
                lst.append(fn)
    return {f: v for f, v in fns.items() if v}


def make_initramfs(chosen: list[Workload], fns: dict[str, list[str]], dest: Path) -> None:
    tree = initramfs.base_tree((RT / "init.sh").read_bytes())
    tree.add_file("etc/detasklet/lib.sh", (RT / "lib.sh").read_bytes())
    for w in chosen:
        tree.add_file(f"etc/detasklet/w/{w.name}.sh",
                      (RT / "workloads" / f"{w.name}.sh").read_bytes())
    tree.add_file("etc/detasklet/workloads", "".join(f"{w.name}\n" for w in chosen).encode())
    names = sorted({fn for v in fns.values() for fn in v})
    tree.add_file("etc/detasklet/functions", "".join(f"{n}\n" for n in names).encode())
    shims = ["# The Debian tools before busybox's applets of the same name (Debian's",
             "# busybox sh runs its own applet first); BIN_x: a tool's path, for sh -c."]
    for t in sorted({t for w in chosen for t in w.tools}):
        path = initramfs.find_tool(t)
        initramfs.add_binary(tree, path)
        var = re.sub(r"\W", "_", t)
        shims.append(f"BIN_{var}={path}")
        if var == t:
            shims.append(f'{t}() {{ {path} "$@"; }}')
    tree.add_file("etc/detasklet/tools.sh", ("\n".join(shims) + "\n").encode())
    for prog in sorted({p for w in chosen for p in w.programs}):
        binary = initramfs.build_program(TESTS / f"{prog}.c", dest.parent / prog)
        tree.add_file(f"usr/bin/{prog}", binary.read_bytes(), 0o755)
    initramfs.write(tree, dest)


def build_kernels(o: Options, root: Path, version: str) -> dict[str, dict]:
    frags = kbuild.fragments(RT, version)
    built: dict[str, dict] = {}
    for k in o.kernels:
        t0 = time.monotonic()
        if k == "pristine":
            src = o.kdir
        else:
            src = kbuild.converted_tree(o.kdir, [o.out / "all.patch",
                                                 o.out / "tasklet-free.patch"], root)
        kbuild.configure(src, root / k, frags, o.cc)
        image, _, n = kbuild.build(src, root / k, o.cc, o.jobs, k)
        built[k] = {"image": str(image), "build_secs": round(time.monotonic() - t0),
                    "files_compiled": n}
    return built


def the_disk(o: Options, root: Path, chosen: list[Workload], kernel: str) -> Path | None:
    """The megasas disk image of one kernel's boot (each boot its own: the
    two kernels boot at the same time)."""
    if not any(w.disk for w in chosen):
        return None
    disk = root / f"megasas-disk-{kernel}.img"
    qemu.make_disk(disk, o.disk_mb)
    return disk


def boot_one(o: Options, root: Path, built: dict[str, dict], chosen: list[Workload],
             rdir: Path, k: str) -> results.Run:
    log.info(f"{k}: booting under QEMU (TCG), timeout {o.timeout} s")
    cmd = qemu.command(Path(built[k]["image"]), root / "initramfs.cpio",
                       the_disk(o, root, chosen, k), o.mem_mb, o.cpus)
    b = qemu.boot(cmd, rdir / f"{k}.log", o.timeout, label=k)
    built[k].update({"boot_secs": round(b.seconds), "timed_out": b.timed_out,
                     "qemu": " ".join(cmd)})
    run = results.parse((rdir / f"{k}.log").read_text(errors="replace"),
                        [w.name for w in chosen])
    (rdir / k).mkdir(exist_ok=True)
    for name, s in run.workloads.items():
        (rdir / k / f"{name}.log").write_text("\n".join(s.lines) + "\n")
    log.info(f"{k}: {b.seconds:.0f} s, /init {'finished' if run.done else 'did not finish'}"
             f"{' (timeout)' if b.timed_out else ''}")
    return run


def boot_all(o: Options, root: Path, built: dict[str, dict], chosen: list[Workload],
             rdir: Path) -> dict[str, results.Run]:
    """Both kernels booted at the same time (each QEMU is one process doing
    TCG: two of them use both cores of a 2-core machine)."""
    rdir.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(max_workers=len(o.kernels)) as ex:
        futs = {k: ex.submit(boot_one, o, root, built, chosen, rdir, k) for k in o.kernels}
        return {k: f.result() for k, f in futs.items()}


def write_results(o: Options, version: str, built: dict[str, dict],
                  runs: dict[str, results.Run], chosen: list[Workload], t0: float) -> int:
    """runtime.json and table.txt in OUT/runtime/, the table printed; the exit code."""
    rdir = o.out / "runtime"
    doc = summarize(o, version, built, runs, chosen, functions(o.out))
    doc["total_secs"] = round(time.monotonic() - t0)
    if o.patches:
        doc["patches"] = o.patches
    (rdir / "runtime.json").write_text(json.dumps(doc, indent=1) + "\n")
    annotate_report(o.out / "report.json", doc)
    text = table(doc)
    (rdir / "table.txt").write_text(text)
    print(text, end="")
    bad = [w["name"] for w in doc["workloads"] if w["verdict"] in ("FAIL", "not-run")]
    conv = doc["kernels"].get("converted", {})
    return 1 if bad or conv.get("boot_findings_not_on_the_other") else 0


def from_logs(o: Options) -> int:
    """runtime.json and the table again from OUT/runtime/<kernel>.log (no
    build, no boot): the build and boot figures are the last runtime.json's."""
    rdir = o.out / "runtime"
    olds = []
    for p in sorted(rdir.glob("runtime*.json")):      # runtime.json, and copies of
        try:                                          # one-kernel runs' runtime.json
            olds.append(json.loads(p.read_text()))
        except (OSError, ValueError) as e:
            raise InputError(f"{p}: {e}") from None
    if not olds:
        raise InputError(f"no {rdir / 'runtime.json'} (run make runtime first)")
    old = {"kernel": olds[0]["kernel"], "kernels": {}}
    o.patches = olds[0].get("patches", {})
    for d in olds:
        old["kernels"].update(d.get("kernels", {}))
    chosen = by_name(o.workloads)
    runs = {k: results.parse((rdir / f"{k}.log").read_text(errors="replace"),
                             [w.name for w in chosen])
            for k in o.kernels if (rdir / f"{k}.log").is_file()}
    built = {k: {x: v for x, v in old["kernels"].get(k, {}).items()
                 if x in ("image", "build_secs", "files_compiled", "boot_secs", "timed_out",
                          "qemu")} for k in runs}
    return write_results(o, old["kernel"], built, runs, chosen, time.monotonic())


def run(o: Options) -> int:
    for f in ("all.patch", "report.json", "tasklet-free.patch"):
        if not (o.out / f).is_file():
            raise InputError(f"{o.out / f} missing (make convert, then "
                             f"python3 -m detasklet tasklet-free)")
    try:
        chosen = by_name(o.workloads)
    except ValueError as e:
        raise InputError(str(e)) from None
    version = kernel_version(o.kdir)
    o.patches = patch_ids(o.out)
    root = o.build_dir / f"runtime-{version}"
    rdir = o.out / "runtime"
    rdir.mkdir(parents=True, exist_ok=True)     # again in boot_all: a convert replaces OUT
    root.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    built = build_kernels(o, root, version)
    fns = functions(o.out)
    make_initramfs(chosen, fns, root / "initramfs.cpio")
    if o.rounds:
        return run_bench(o, version, root, built, chosen)
    runs = boot_all(o, root, built, chosen, rdir)
    return write_results(o, version, built, runs, chosen, t0)


def run_bench(o: Options, version: str, root: Path, built: dict[str, dict],
              chosen: list[Workload]) -> int:
    """make runtime-bench: o.rounds rounds, both kernels each, interleaved;
    OUT/bench/runtime-bench.json. Exit 1 when a workload failed in a boot."""
    images = {k: Path(built[k]["image"]) for k in o.kernels}
    load0 = os.getloadavg()
    t0 = time.monotonic()
    rounds = bench.run_rounds(o.rounds, images, root / "initramfs.cpio",
                              the_disk(o, root, chosen, "bench"), o.out / "bench" / "runtime",
                              [w.name for w in chosen], o.mem_mb, o.cpus, o.timeout)
    doc = {"kernel": version, "accel": "tcg", "command": o.command, "rounds": o.rounds,
           "workloads": [w.name for w in chosen], "secs": round(time.monotonic() - t0),
           "loadavg_before": [round(x, 1) for x in load0],
           "loadavg_after": [round(x, 1) for x in os.getloadavg()],
           "patches": o.patches, "boots": rounds, "ratios": bench.ratios(rounds)}
    print(bench.write(o.out, doc), end="")
    failed = [(r["round"], k, w) for r in rounds for k, st in r["status"].items()
              for w, s in st.items() if s != "pass"]
    for rnd, k, w in failed:
        log.warning(f"bench round {rnd}: {w} did not pass on the {k} kernel")
    return 1 if failed else 0
