# SPDX-License-Identifier: GPL-2.0-only
"""make compile-test M=: build an external module as kbuild builds one.

The kernel KDIR is prepared once in a build folder of the tool's
(`make O=<build> defconfig modules_prepare`; KDIR is only read), then the
module is built twice with `make -C <build> M=<copy> modules`: a copy of
the module as it is, and a copy with OUT/all.patch applied (the module
itself is never written). A module whose Kbuild is in a sub-folder (a DKMS
package: dahdi's drivers/dahdi) is built there (MDIR=), with the make
variables its own Makefile would pass (MVARS=; "{M}" is the copy's root).
Without a vmlinux there is no Module.symvers:
modpost is run with KBUILD_MODPOST_WARN=1, so an unresolved symbol is a
warning, and the check is the compiler's (objects and the .ko written,
and no warning the pristine build did not have).
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .. import module as module_, proc
from ..ctext.gitdiff import apply, parse
from ..ctext.includes import includers
from ..errors import BuildError, InputError
from ..out import files as outfiles
from ..out.staging import changed
from . import make
from .compile_test import record

log = logging.getLogger("detasklet")

CONFIG = "defconfig"
# x86_64's defconfig turns CONFIG_WERROR on; a distribution's kernel, which
# a DKMS module is built against, has it off. Warnings are still compared.
CONFIG_OFF = ("WERROR",)
MODPOST = "KBUILD_MODPOST_WARN=1"
WARN_RE = re.compile(r"^(\S+?):\d+(?::\d+)?: (warning|error): (.*)$")


def prepare(kdir: Path, bdir: Path, jobs: int) -> None:
    """defconfig (once per kernel version) and modules_prepare in bdir."""
    version = f"linux {make.kernel_version(kdir)}"
    make.claim(bdir, version)
    bdir.mkdir(parents=True, exist_ok=True)
    stamp = bdir / make.STAMP
    base = ["make", "-C", str(kdir), f"O={bdir}", "-s"]
    want = version + "\n" + CONFIG + "".join(f" {c}=n" for c in CONFIG_OFF)
    if not (stamp.is_file() and stamp.read_text() == want and (bdir / ".config").is_file()):
        log.info(f"{bdir.name}: make {CONFIG}, then {' '.join(CONFIG_OFF)} off")
        r = proc.run([*base, CONFIG], env=make.kernel_env())
        if r.rc == 0:
            r = proc.run(["bash", str(kdir / "scripts" / "config"), "--file", str(bdir / ".config"),
                          *[a for c in CONFIG_OFF for a in ("--disable", c)]], env=make.kernel_env())
        if r.rc == 0:
            r = proc.run([*base, "olddefconfig"], env=make.kernel_env())
        if r.rc:
            raise BuildError(f"{bdir.name}: {CONFIG} failed: {r.stderr.strip()[-300:]}")
        stamp.write_text(want)
    log.info(f"{bdir.name}: make modules_prepare")
    r = proc.run([*base, f"-j{jobs}", "modules_prepare"], env=make.kernel_env())
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


@dataclass
class How:
    """How the module is built: the folder kbuild's M= names (relative to
    the module's root) and the extra make variables ("{M}": the copy's
    root), shell words: KCFLAGS="-DA -DB" is one."""
    sub: str = ""
    mvars: list[str] = field(default_factory=list)

    def check(self, root: Path) -> None:
        """MDIR= inside the module, with a Kbuild or Makefile; MVARS= of VAR=value words."""
        if self.sub:
            d = (root / self.sub).resolve()
            if os.path.isabs(self.sub) or not d.is_dir() or not d.is_relative_to(root):
                raise InputError(f"MDIR={self.sub}: not a folder inside M={root}")
            if not module_.kbuild_text(d):
                raise InputError(f"MDIR={self.sub}: no Kbuild or Makefile there")
        bad = [v for v in self.mvars if not re.fullmatch(r"[A-Za-z_]\w*=.*", v, re.S)]
        if bad:
            raise InputError(f"MVARS: {bad[0]!r} is not VAR=value")


@dataclass
class Built:
    rc: int
    diags: list[str]            # the compiler's warning/error lines, paths module-relative
    tail: str                   # the output's tail


def rel(line: str, mdir: Path, sub: str) -> str:
    """A diagnostic's path relative to the module's root (kbuild prints
    the M= folder's files relative to it)."""
    path = line.split(":", 1)[0]
    if path.startswith(str(mdir) + "/"):
        return line[len(str(mdir)) + 1:]
    if path.startswith("/") or not sub:
        return line
    return os.path.normpath(os.path.join(sub, path)) + line[len(path):]


def build(bdir: Path, mdir: Path, jobs: int, how: How) -> Built:
    """One make M= of the copy mdir."""
    mvars = [v.replace("{M}", str(mdir)) for v in how.mvars]
    r = proc.run(["make", "-C", str(bdir), f"M={mdir / how.sub if how.sub else mdir}",
                  *mvars, MODPOST, "-k", f"-j{jobs}", "modules"], errors="replace",
                 env=make.kernel_env())
    text = r.stdout + r.stderr
    diags = [rel(ln, mdir, how.sub) for ln in text.splitlines() if WARN_RE.match(ln)]
    tail = "\n".join(text.replace(str(mdir) + "/", "").splitlines()[-make.LOG_LINES:])
    return Built(r.rc, diags, tail)


def key(diag: str) -> tuple[str, str, str]:
    """A diagnostic without its line and column: a converted file's lines
    move, its messages do not."""
    m = WARN_RE.match(diag)
    return (m.group(1), m.group(2), m.group(3)) if m else ("", "", diag)


def added(pristine: list[str], converted: list[str]) -> list[str]:
    """The converted build's diagnostics the pristine build had fewer of."""
    left = Counter(key(d) for d in pristine)
    out = []
    for d in converted:
        if left[key(d)]:
            left[key(d)] -= 1
        else:
            out.append(d)
    return out


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


def users(path: str, incl: dict[str, set[str]]) -> set[str]:
    """path and the files of the module that include it, through headers too."""
    seen, todo = {path}, [path]
    while todo:
        for f in incl.get(todo.pop(), set()) - seen:
            seen.add(f)
            todo.append(f)
    return seen


def status(path: str, b: Built, objs: set[str], incl: dict[str, set[str]]) -> str:
    """A file's build: a .c has its object, else an error (the build failed)
    or was not built (Kbuild does not name it); a header is built when every
    .c of the module that includes it (through headers too) is."""
    if path.endswith(".c"):
        if path[:-2] + ".o" in objs:
            return "ok"
        return "error" if b.rc else "not-built"
    cs = [status(c, b, objs, incl) for c in sorted(users(path, incl)) if c.endswith(".c")]
    if not cs:
        return "ok" if b.rc == 0 else "error"
    return "error" if "error" in cs else "ok" if "ok" in cs else "not-built"


def records(rep: dict, objs: dict[str, set[str]], built: dict[str, Built],
            new_diags: list[str], incl: dict[str, set[str]]) -> dict[str, dict]:
    """The "build" record of each converted file."""
    out: dict[str, dict] = {}
    for path in outfiles.converted(rep):
        st = {k: status(path, built[k], objs[k], incl) for k in built}
        mine = [d for d in new_diags if d.startswith(path + ":")]
        if mine:
            st["converted"] = "error"
        mine_or_includers = users(path, incl)
        errs = [d for d in built["converted"].diags
                if key(d)[0] in mine_or_includers and key(d)[1] == "error"]
        log = "\n".join(mine) or ("\n".join(errs) or built["converted"].tail
                                   if st["converted"] != "ok" else "")
        out[path] = {"arch": "x86_64", "config": f"{CONFIG}, {' '.join(CONFIG_OFF)} off, as an "
                     "external module (make M=)",
                     "pristine": st["pristine"], "converted": st["converted"], "log": log}
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


def section(mod: module_.Module, kdir: Path, how: How, built: dict[str, Built],
            builds: dict[str, dict], new: list[str]) -> list[str]:
    """report.md's "## Build": the command, the module's result each way, and
    each converted file's."""
    ok = {k: "ok" if b.rc == 0 else f"FAILED (make exit {b.rc})" for k, b in built.items()}
    reg = [f for f, b in builds.items() if b.get("regression")]
    m = f"<copy>/{how.sub}" if how.sub else "<copy>"
    return ["## Build", "", f"The module {mod.name} built as an external module against Linux "
            f"{make.kernel_version(kdir)} ({CONFIG} with CONFIG_{' CONFIG_'.join(CONFIG_OFF)} off, "
            f"as a distribution's kernel has it, x86_64; `make -C <build> M={m} "
            f"{' '.join(how.mvars) + ' ' if how.mvars else ''}{MODPOST} -k modules`): "
            f"pristine {ok['pristine']}, converted {ok['converted']}; {len(new)} compiler "
            "diagnostics the pristine build did not have (matched without line numbers); "
            f"{len(reg)} regressions.", "",
            "| converted file | pristine | converted |", "|---|---|---|",
            *[f"| `{f}` | {b['pristine']} | {b['converted']} |" for f, b in builds.items()],
            "", *[f"- `{d}`" for d in new], *([""] if new else [])]


def build_both(mod: module_.Module, out: Path, bdir: Path, work: Path, jobs: int,
               how: How) -> tuple[dict[str, Built], dict[str, set[str]]]:
    """The module built pristine and converted: each build and its objects."""
    new = converted_texts(mod.root, out)
    built: dict[str, Built] = {}
    objs: dict[str, set[str]] = {}
    kinds: list[tuple[str, dict[str, str]]] = [("pristine", {}), ("converted", new)]
    for kind, texts in kinds:
        mdir = work / kind
        copy(mod.root, mdir, texts)
        log.info(f"make -C {bdir} M={mdir / how.sub} modules")
        built[kind] = build(bdir, mdir, jobs, how)
        objs[kind] = {str(p.relative_to(mdir)) for p in mdir.rglob("*.o")}
        if built[kind].rc == 0 and not any(mdir.rglob("*.ko")):
            built[kind].rc = -1         # make said yes, but no module was written
    return built, objs


def main(out: Path, build_root: Path, jobs: int, m_arg: Path, how: How | None = None) -> int:
    """make compile-test M=: OUT must be a make convert M= OUT of that module."""
    start = time.time()
    how = how or How()
    mod, rep = check(out, m_arg)
    how.check(mod.root)
    kdir = Path(rep["module"]["kdir"])
    bdir = build_root / f"module-prep-{make.kernel_version(kdir)}"
    prepare(kdir, bdir, jobs)
    built, objs = build_both(mod, out, bdir, build_root / f"module-{mod.name}", jobs, how)
    new = added(built["pristine"].diags, built["converted"].diags)
    builds = records(rep, objs, built, new, includers(mod.root))
    reg = [f for f, b in builds.items() if b.get("regression")]
    from ..series import module as series_module
    from ..series.identity import Ident
    rec = rep.get("series") or {}
    with changed(out) as tmp:           # the records and series/ swapped in whole
        record(tmp, builds, section(mod, kdir, how, built, builds, new))
        series_module.build(mod, kdir, tmp, Ident(str(rec.get("from", "")), int(rec.get(
            "date", 0)), str(rec.get("base", "")), "report.json") if rec.get("from") else None)
    ok = {k: "ok" if b.rc == 0 else "FAILED" for k, b in built.items()}
    print(f"compile-test M={mod.root}: pristine {ok['pristine']}, converted {ok['converted']}"
          f"; {len(builds)} converted files, {len(reg)} regressions, {len(new)} new "
          f"diagnostics, in {time.time() - start:.0f} s; report: {out / 'report.md'}")
    for f, b in builds.items():
        print(f"  {f}: pristine {b['pristine']}, converted {b['converted']}")
    for d in new:
        print(f"NEW {d}")
    for f in reg:
        print(f"REGRESSION {f}: {builds[f]['log'].splitlines()[0] if builds[f]['log'] else ''}")
    # a module that does not build pristine either is not a regression
    return 1 if reg or new or built["pristine"].rc == 0 and built["converted"].rc else 0
