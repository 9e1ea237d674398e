# SPDX-License-Identifier: GPL-2.0-only
"""make in a build folder: allmodconfig once, then objects with make -k.

configure() runs allmodconfig (again only when a Kconfig file or the make
variables changed) and prepare, in a build folder of one kernel version (a
folder this module made for another version is emptied first: objects and
generated headers of another release break make prepare);
compile_objects() builds a list of objects in one `make -k -jN` and reads
each one's result and first error lines from its output (--output-sync
keeps an object's lines together).
"""

from __future__ import annotations

import logging
import os
import re
import shutil
from pathlib import Path
from typing import Iterable

from .. import proc
from ..errors import BuildError
from ..kdir import kernel_version

log = logging.getLogger("detasklet")

# What configure() last configured a build folder for: "linux <version>",
# the make variables, the KCONFIG_ALLCONFIG lines.
STAMP = ".detasklet-config"

LOG_LINES = 12


def kernel_env() -> dict[str, str]:
    """The environment of the kernel's make: without the variables a make
    that runs us passes down. MAKEFLAGS holds its flags and command-line
    variables (`make -j2 -s compile-test LLVM=1` would hand -s, which
    silences the CC lines the results are read from, LLVM=1 and its
    jobserver to the kernel's make; M= of a module would make defconfig
    build it)."""
    return {k: v for k, v in os.environ.items()
            if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}


def kconfig_newest(src: Path) -> float:
    """The mtime of the newest Kconfig file of the tree (scripts/ and
    samples/ have some too: every folder but .git)."""
    newest = 0.0
    for root, dirs, names in os.walk(src):
        dirs[:] = [d for d in dirs if d != ".git"]
        for n in names:
            if n.startswith("Kconfig"):
                newest = max(newest, os.stat(os.path.join(root, n)).st_mtime)
    return newest


def _first_lines(text: str, n: int) -> str:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    err = [i for i, ln in enumerate(lines) if re.search(r"\berror\b|\*\*\*", ln)]
    start = err[0] if err else max(0, len(lines) - n)
    return " | ".join(lines[start:start + n])


def claim(bdir: Path, version: str) -> None:
    """Empty bdir if configure() stamped it for another kernel version
    ("linux 6.12.118"); a folder without the stamp is left alone."""
    stamp = bdir / STAMP
    had = stamp.read_text().partition("\n")[0] if stamp.is_file() else ""
    if had.startswith("linux ") and had != version:
        log.info(f"{bdir.name}: built for {had}, emptied for {version}")
        shutil.rmtree(bdir)


def configure(src: Path, bdir: Path, mvars: list[str], jobs: int, kconfig_mtime: float,
              prepare: bool = True, allconfig: str = "") -> None:
    """allmodconfig once (again only when Kconfig or the make variables
    changed), then prepare. bdir holds one kernel version's build: one
    this module configured for another version (its stamp says which) is
    emptied first."""
    stamp = bdir / STAMP
    cfg = bdir / ".config"
    version = f"linux {kernel_version(src)}"
    want = version + "\n" + " ".join(mvars) + "\n" + allconfig
    claim(bdir, version)
    fresh = (cfg.is_file() and stamp.is_file() and stamp.read_text() == want
             and cfg.stat().st_mtime >= kconfig_mtime)
    bdir.mkdir(parents=True, exist_ok=True)
    base = ["make", "-C", str(src), f"O={bdir}", *mvars]
    if not fresh:
        log.info(f"{bdir.name}: make allmodconfig")
        extra = []
        if allconfig:
            (bdir / "allconfig").write_text(allconfig)
            extra = [f"KCONFIG_ALLCONFIG={bdir / 'allconfig'}"]
        r = proc.run([*base, *extra, "-s", "allmodconfig"], env=kernel_env())
        if r.rc:
            raise BuildError(f"{bdir.name}: allmodconfig failed: "
                             f"{_first_lines(r.stdout + r.stderr, 3)}")
        stamp.write_text(want)
    if not prepare:
        return
    log.info(f"{bdir.name}: make prepare")
    r = proc.run([*base, "-s", f"-j{jobs}", "prepare"], env=kernel_env())
    if r.rc:
        raise BuildError(f"{bdir.name}: make prepare failed: "
                         f"{_first_lines(r.stdout + r.stderr, 3)}")


_CC_LINE = re.compile(r"^\s+CC( \[M\])?\s+(\S+\.o)\s*$")
_ERR_LINE = re.compile(r"^make\[\d+\]: \*\*\* \[[^\]]*?:\d+: (\S+\.o)\] Error")
_NORULE = re.compile(r"No rule to make target '([^']+)'(?:, needed by '([^']+)')?")


def error_excerpt(lines: list[str]) -> str:
    idx = [i for i, ln in enumerate(lines) if re.search(r"\berror\b|No rule", ln)]
    start = idx[0] if idx else 0
    return "\n".join(lines[start:start + LOG_LINES])


def compile_objects(src: Path, bdir: Path, mvars: list[str], objs: list[str], jobs: int,
                    label: str) -> dict[str, tuple[str, str]]:
    """obj -> ("ok"|"error", first error lines). One make -k for all; the
    objects that failed are made again in one make -j1, whose result
    counts. kbuild can compile one object twice in a single-target build
    (a "CC" and a "CC [M]" line: parisc's hil_mlc.o), and two such compiles
    at once race on its .d file ("fixdep: error opening file"); a real
    error fails again."""
    res = _compile(src, bdir, mvars, objs, jobs, label)
    again = [o for o in objs if res[o][0] != "ok"]
    if again and jobs > 1:
        log.info(f"[{label}] {len(again)} failed: again with -j1")
        res.update(_compile(src, bdir, mvars, again, 1, f"{label} -j1"))
    return res


def _compile(src: Path, bdir: Path, mvars: list[str], objs: list[str], jobs: int,
             label: str) -> dict[str, tuple[str, str]]:
    res: dict[str, tuple[str, str]] = {}
    if not objs:
        return res
    want = set(objs)
    text: dict[str, list[str]] = {}
    cmd = ["make", "-C", str(src), f"O={bdir}", *mvars, "-k", f"-j{jobs}",
           "--output-sync=target", *objs]
    with proc.lines(cmd, env=kernel_env()) as make:
        assert make.stdout is not None
        failed = _read_make(make.stdout, src, want, objs, label, text)
    for o in objs:
        if o in failed:
            res[o] = ("error", error_excerpt(text.get(o, [])))
        elif (bdir / o).is_file():
            res[o] = ("ok", "")
        else:
            res[o] = ("error", error_excerpt(text.get(o, [])) or
                      f"make exited {make.returncode} and {o} was not written")
    return res


def _read_make(stream: Iterable[str], src: Path, want: set[str], objs: list[str], label: str,
               text: dict[str, list[str]]) -> set[str]:
    """Read make's output: progress logged, each object's lines into
    text; the objects that failed."""
    cur: str | None = None
    prefix = str(src) + "/"
    failed: set[str] = set()
    seen: set[str] = set()
    for line in stream:
        line = line.rstrip("\n")
        m = _CC_LINE.match(line)
        if m:
            cur = m.group(2) if m.group(2) in want else None
            if cur and cur not in seen:
                # make can print one object twice: count each once.
                seen.add(cur)
                log.info(f"[{label} {len(seen)}/{len(objs)}] {cur}")
            continue
        m = _ERR_LINE.match(line)
        if m:
            o = m.group(1)
            if o in want and o not in failed:
                failed.add(o)
                first = error_excerpt(text.get(o, []))
                log.warning(f"[{label}] FAILED {o}: "
                            f"{first.splitlines()[0] if first else '(no output)'}")
            cur = None
            continue
        m = _NORULE.search(line)
        if m:
            o = m.group(2) or m.group(1)
            if o in want:
                failed.add(o)
                text.setdefault(o, []).append(line)
            continue
        if line.startswith("make") or re.match(r"^\s+[A-Z]{2,}[A-Z0-9_ \[\]]*\s+\S", line):
            cur = None
            continue
        if cur:
            text.setdefault(cur, []).append(line.replace(prefix, ""))
    return failed
