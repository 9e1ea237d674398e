# SPDX-License-Identifier: GPL-2.0-only
"""make compile-test M=: build an external module as kbuild builds one.

The kernel KDIR is prepared once in a build folder of the tool's
(`make O=<build> defconfig modules_prepare`; KDIR is only read), then the
module is built twice with `make -C <build> M=<copy> modules`: a copy of
the module as it is, and a copy with OUT/all.patch applied (the module
itself is never written). Without a vmlinux there is no Module.symvers:
modpost is run with KBUILD_MODPOST_WARN=1, so an unresolved symbol is a
warning, and the check is the compiler's (objects and the .ko written,
and no warning the pristine build did not have).
"""

from __future__ import annotations

import logging
import re
import shutil
import time
from pathlib import Path

from .. import module as module_, proc
from ..ctext.gitdiff import apply, parse
from ..errors import BuildError, InputError
from ..out import files as outfiles
from . import make
from .compile_test import record

log = logging.getLogger("detasklet")

CONFIG = "defconfig"
MODPOST = "KBUILD_MODPOST_WARN=1"
WARN_RE = re.compile(r"^(\S+?):\d+(?::\d+)?: (warning|error): (.*)$")


def prepare(kdir: Path, bdir: Path, jobs: int) -> None:
    """defconfig (once per kernel version) and modules_prepare in bdir."""
    version = f"linux {make.kernel_version(kdir)}"
    make.claim(bdir, version)
    bdir.mkdir(parents=True, exist_ok=True)
    stamp = bdir / make.STAMP
    base = ["make", "-C", str(kdir), f"O={bdir}", "-s"]
    if not (stamp.is_file() and stamp.read_text() == version + "\n" + CONFIG
            and (bdir / ".config").is_file()):
        log.info(f"{bdir.name}: make {CONFIG}")
        r = proc.run([*base, CONFIG])
        if r.rc:
            raise BuildError(f"{bdir.name}: {CONFIG} failed: {r.stderr.strip()[-300:]}")
        stamp.write_text(version + "\n" + CONFIG)
    log.info(f"{bdir.name}: make modules_prepare")
    r = proc.run([*base, f"-j{jobs}", "modules_prepare"])
    if r.rc:
        raise BuildError(f"{bdir.name}: modules_prepare failed: {r.stderr.strip()[-300:]}")


def copy(root: Path, dst: Path, new: dict[str, str]) -> None:
    """dst: a fresh copy of the module's files, with new texts put in."""
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(root, dst, ignore=shutil.ignore_patterns(".git", "*.o", "*.ko", "*.cmd"),
                    symlinks=True)
    for rel, text in new.items():
        (dst / rel).write_text(text, errors="surrogateescape")


def build(bdir: Path, mdir: Path, jobs: int) -> tuple[int, list[str], str]:
    """(exit code, the compiler's warning/error lines with paths made
    module-relative, the output's tail) of one make M=."""
    r = proc.run(["make", "-C", str(bdir), f"M={mdir}", MODPOST, "-k", f"-j{jobs}",
                  "modules"], errors="replace")
    text = (r.stdout + r.stderr).replace(str(mdir) + "/", "")
    diags = [ln for ln in text.splitlines() if WARN_RE.match(ln)]
    return r.rc, diags, "\n".join(text.splitlines()[-make.LOG_LINES:])


def converted_texts(root: Path, out: Path) -> dict[str, str]:
    """Each file of OUT/all.patch, patched, from the module's own text."""
    text = outfiles.load_patch(out)
    got = {}
    for fd in parse(text):
        old = (root / fd.path).read_bytes().decode("utf-8", errors="surrogateescape")
        got[fd.path] = apply(old, fd)
    return got


def module_of(rep: dict) -> module_.Module:
    m = rep.get("module")
    if not isinstance(m, dict) or not Path(str(m.get("root", ""))).is_dir():
        raise InputError("this OUT was not made with M= (or its module folder is gone): "
                         "make compile-test M=dir wants a make convert M=dir OUT")
    return module_.check(m["root"], Path(m["kdir"]), m.get("decisions", ""),
                         ",".join(m.get("to", [])))


def records(rep: dict, mod_objs: dict[str, dict[str, bool]], new_diags: list[str],
            logs: dict[str, str]) -> dict[str, dict]:
    """The "build" record of each converted file."""
    out: dict[str, dict] = {}
    for path in outfiles.converted(rep):
        o = path[:-2] + ".o"
        st = {k: ("ok" if v.get(o, v.get("ko", False)) else "error")
              for k, v in mod_objs.items()}
        mine = [d for d in new_diags if d.startswith(path + ":")]
        if mine:
            st["converted"] = "error"
        out[path] = {"arch": "x86_64", "config": f"{CONFIG}, as an external module (make M=)",
                     "pristine": st["pristine"], "converted": st["converted"],
                     "log": "\n".join(mine) or (logs["converted"] if st["converted"] != "ok"
                                                 else "")}
        if st["pristine"] == "ok" and st["converted"] != "ok":
            out[path]["regression"] = True
    return out


def check(out: Path, m_arg: Path) -> tuple[module_.Module, dict]:
    """(the module, report.json) when OUT is a make convert M= OUT of M=m_arg."""
    rep = outfiles.load_report(out)
    mod = module_of(rep)
    if mod.root != m_arg.resolve():
        raise InputError(f"OUT {out} was made from M={mod.root}, not M={m_arg}")
    return mod, rep


def main(out: Path, build_root: Path, jobs: int, m_arg: Path) -> int:
    """make compile-test M=: OUT must be a make convert M= OUT of that module."""
    start = time.time()
    mod, rep = check(out, m_arg)
    kdir = Path(rep["module"]["kdir"])
    bdir = build_root / f"module-prep-{make.kernel_version(kdir)}"
    prepare(kdir, bdir, jobs)
    work = build_root / f"module-{mod.name}"
    new = converted_texts(mod.root, out)
    objs: dict[str, dict[str, bool]] = {}
    diags: dict[str, list[str]] = {}
    logs: dict[str, str] = {}
    kinds: list[tuple[str, dict[str, str]]] = [("pristine", {}), ("converted", new)]
    for kind, texts in kinds:
        mdir = work / kind
        copy(mod.root, mdir, texts)
        log.info(f"make -C {bdir} M={mdir} modules")
        rc, diags[kind], logs[kind] = build(bdir, mdir, jobs)
        objs[kind] = {str(p.relative_to(mdir)): True for p in mdir.rglob("*.o")}
        objs[kind]["ko"] = rc == 0 and any(mdir.rglob("*.ko"))
    added = [d for d in diags["converted"] if d not in diags["pristine"]]
    builds = records(rep, objs, added, logs)
    reg = [f for f, b in builds.items() if b.get("regression")]
    record(out, builds, [
        "## Build", "", f"The module {mod.name} built as an external module against Linux "
        f"{make.kernel_version(kdir)} ({CONFIG}, x86_64; `make -C <build> M=<copy> modules`, "
        f"{MODPOST}): pristine {'ok' if objs['pristine']['ko'] else 'FAILED'}, converted "
        f"{'ok' if objs['converted']['ko'] else 'FAILED'}; {len(added)} compiler diagnostics "
        f"the pristine build did not have; {len(reg)} regressions.", "",
        *[f"- `{d}`" for d in added], *([""] if added else [])])
    from ..series import module as series_module
    from ..series.identity import Ident
    rec = rep.get("series") or {}
    series_module.build(mod, kdir, out, Ident(str(rec.get("from", "")), int(rec.get("date", 0)),
                                              str(rec.get("base", "")), "report.json")
                        if rec.get("from") else None)
    print(f"compile-test M={mod.root}: pristine {'ok' if objs['pristine']['ko'] else 'FAILED'}"
          f", converted {'ok' if objs['converted']['ko'] else 'FAILED'}; {len(builds)} "
          f"converted files, {len(reg)} regressions, {len(added)} new diagnostics, in "
          f"{time.time() - start:.0f} s; report: {out / 'report.md'}")
    for d in added:
        print(f"NEW {d}")
    for f in reg:
        print(f"REGRESSION {f}: {builds[f]['log'].splitlines()[0] if builds[f]['log'] else ''}")
    # a module that does not build pristine either is not a regression
    return 1 if reg or objs["pristine"]["ko"] and not objs["converted"]["ko"] else 0
