"""compile-test: prove that every converted file still builds (allmodconfig).

Input is a finished `convert` OUT (report.json, all.patch) and the tree it
was made from. KDIR is only read:

- the converted tree is a hard-link copy of KDIR (`cp -al`) with all.patch
  applied; GNU patch writes each changed file anew, and that is checked (a
  patched file must not share its inode with KDIR);
- each architecture has two build folders, `<arch>-pristine` (O= of KDIR) and
  `<arch>-converted` (O= of the copy), both `allmodconfig`; kbuild's own
  dependency tracking makes a second run recompile only what changed;
- the objects are every converted .c and every .c that includes a converted
  file (directly, or through local headers for a driver-private header);
  they are built in one `make -k path/a.o path/b.o ...` per tree.

"Not built" is decided from the configuration, not from the compiler: in
Linux 6.12 `make dir/x.o` compiles x.c even when no CONFIG enables it, so a
file counts as built on an architecture only when its folder Makefile lists
it (`obj-$(CONFIG_X) += x.o`, or a composite `m-$(CONFIG_Y) += x.o` whose
m.o is itself enabled) and every folder above it is descended into
(`obj-$(CONFIG_Z) += dir/`), with the symbols read from that build's .config.
A file no Makefile names (a .c #included by another .c) is built through its
includers. Files not built on x86_64 move on to the next architecture.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from .tree import TreeError


@dataclass(frozen=True)
class Arch:
    name: str          # our name, and the build folder prefix
    karch: str         # ARCH= for kbuild
    cross: str         # CROSS_COMPILE= prefix ('' for the host)
    package: str       # Debian package of the compiler
    allconfig: str = ""  # KCONFIG_ALLCONFIG lines: symbols allmodconfig must keep


ARCHES: dict[str, Arch] = {a.name: a for a in (
    Arch("x86_64", "x86_64", "", "gcc"),
    Arch("arm64", "arm64", "aarch64-linux-gnu-", "gcc-aarch64-linux-gnu"),
    Arch("arm", "arm", "arm-linux-gnueabihf-", "gcc-arm-linux-gnueabihf"),
    Arch("s390", "s390", "s390x-linux-gnu-", "gcc-s390x-linux-gnu"),
    Arch("powerpc", "powerpc", "powerpc64le-linux-gnu-", "gcc-powerpc64le-linux-gnu"),
    # 32-bit Book3S: MPC512x, 83xx (QUICC Engine), the FSL_SOC drivers.
    Arch("powerpc32", "powerpc", "powerpc-linux-gnu-", "gcc-powerpc-linux-gnu",
         "# CONFIG_PPC64 is not set\n"),
    Arch("mips", "mips", "mips-linux-gnu-", "gcc-mips-linux-gnu"),
    # 32-bit PA-RISC: the GSC bus of HP workstations (hil_mlc, hp_sdc).
    Arch("parisc", "parisc", "hppa-linux-gnu-", "gcc-hppa-linux-gnu"),
)}
DEFAULT_ARCHES = tuple(ARCHES)

# Path prefix -> the only architecture that can build it (first match wins).
# Everything else goes to x86_64 first, then to the other arches in order.
PATH_ARCH: tuple[tuple[str, str], ...] = (
    ("arch/x86/", "x86_64"), ("arch/arm64/", "arm64"), ("arch/arm/", "arm"),
    ("arch/s390/", "s390"), ("drivers/s390/", "s390"), ("net/iucv/", "s390"),
    ("arch/powerpc/", "powerpc"), ("drivers/macintosh/", "powerpc"),
    ("drivers/ps3/", "powerpc"), ("arch/mips/", "mips"),
    ("arch/parisc/", "parisc"), ("drivers/parisc/", "parisc"),
)
# Top folders kbuild always descends into (Makefile core-y/drivers-y/libs-y).
TOP_DIRS = frozenset({"init", "kernel", "mm", "fs", "ipc", "security", "crypto",
                      "block", "io_uring", "drivers", "sound", "net", "lib",
                      "virt", "certs", "usr"})
LOG_LINES = 12


# ---------------------------------------------------------------- inputs

@dataclass
class Job:
    kdir: Path
    out: Path
    build: Path
    arches: list[str]
    jobs: int
    cc: str | None
    files: list[str] | None = None
    quiet: bool = False
    pristine: str = "failed"     # "all": compile every object pristine too
    strict: bool = False         # every file must build converted somewhere


def load_report(out: Path) -> dict:
    rj = out / "report.json"
    if not out.is_dir() or not rj.is_file() or not (out / "all.patch").is_file():
        raise TreeError(f"{out} has no report.json/all.patch: run make convert first")
    try:
        data = json.loads(rj.read_text())
        files = data["files"]
    except (ValueError, KeyError, TypeError):
        raise TreeError(f"{rj} is not a detasklet report: run make convert again") from None
    if not isinstance(files, list):
        raise TreeError(f"{rj} is not a detasklet report: run make convert again")
    return data


def patched_files(patch: str) -> list[str]:
    """Paths (relative to the tree) that a -p1 patch changes."""
    return sorted({m.group(1) for m in re.finditer(r"^\+\+\+ b/(\S+)", patch, re.M)})


def arch_for(path: str) -> str | None:
    """The one arch that can build path, None for any. arch/<a>/ of an arch
    not in ARCHES gives its folder name, which no run has."""
    for prefix, a in PATH_ARCH:
        if path.startswith(prefix):
            return a
    m = re.match(r"arch/([^/]+)/", path)
    return m.group(1) if m else None


# ---------------------------------------------------------------- includers

INCLUDE_RE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.M)
SCAN_SKIP = frozenset({".git", "Documentation", "tools", "scripts", "LICENSES", "usr"})


def is_public_header(path: str) -> bool:
    return path.startswith("include/") or bool(re.match(r"arch/[^/]+/include/", path))


def include_graph(kdir: Path) -> dict[str, set[str]]:
    """header (tree-relative) -> files that #include it (quoted, relative to the
    includer's folder, or <x.h> resolving to include/x.h)."""
    rev: dict[str, set[str]] = {}
    exists: dict[str, bool] = {}
    for root, dirs, names in os.walk(kdir):
        rel = os.path.relpath(root, kdir)
        if rel == ".":
            dirs[:] = [d for d in dirs if d not in SCAN_SKIP]
            rel = ""
        for n in names:
            if not n.endswith((".c", ".h")):
                continue
            p = os.path.join(rel, n)
            try:
                data = (kdir / p).read_bytes()
            except OSError:
                continue
            if b"include" not in data:
                continue
            for m in INCLUDE_RE.finditer(data):
                name = m.group(2).decode(errors="replace").strip()
                cand = resolve_include(kdir, rel, name, m.group(1) == b'"', exists)
                if cand:
                    rev.setdefault(cand, set()).add(p)
    return rev


def resolve_include(kdir: Path, rel: str, name: str, quoted: bool,
                    exists: dict[str, bool]) -> str | None:
    """The tree file an #include names: "x.h" beside the includer, <x.h> in
    include/; failing that, x.h or include/x.h in a folder above the includer
    (a driver's own -I$(src) or -I$(src)/include, as mlx5 and rtl8723bs use)."""
    def isfile(c: str) -> bool:
        if c not in exists:
            exists[c] = (kdir / c).is_file()
        return exists[c]
    first = [os.path.normpath(os.path.join(rel, name))] if quoted else []
    for c in first + ["include/" + name]:
        if isfile(c):
            return c
    d = rel
    while d:
        d = os.path.dirname(d)
        for c in (os.path.join(d, name), os.path.join(d, "include", name)):
            if not c.startswith(("include/", "arch/")) and isfile(c):
                return c
    return None


def objects_for(converted: Iterable[str], rev: dict[str, set[str]]) -> dict[str, set[str]]:
    """converted file -> the .c files whose compilation checks it.

    A .c checks itself and any converted file it includes. A driver-private
    header reaches through other local headers ("a.h" includes "b.h"); a
    public header (include/...) only its direct includers, since the headers
    that include it reach most of the tree."""
    res: dict[str, set[str]] = {}
    for f in converted:
        objs: set[str] = {f} if f.endswith(".c") else set()
        seen = {f}
        todo = [f]
        while todo:
            h = todo.pop()
            for inc in rev.get(h, ()):
                if inc in seen:
                    continue
                seen.add(inc)
                if inc.endswith(".c"):
                    objs.add(inc)
                elif not is_public_header(inc) and not is_public_header(f):
                    todo.append(inc)
        res[f] = objs
    return res


# ---------------------------------------------------------------- kbuild enablement

_ASSIGN_RE = re.compile(
    r"^([A-Za-z0-9_.-]+?)-(y|m|objs|\$[({](?:[^(){}]|\([^()]*\))*[)}])\s*[:+]?=\s*(.*)$")
_COND_RE = re.compile(r"^(ifdef|ifndef|ifeq|ifneq)\s*(.*)$")


def read_config(build: Path) -> dict[str, str]:
    cfg: dict[str, str] = {}
    for line in (build / ".config").read_text(errors="replace").splitlines():
        m = re.match(r"^(CONFIG_\w+)=(.*)$", line)
        if m:
            cfg[m.group(1)] = m.group(2).strip('"')
    return cfg


def _cond_value(cond: str, cfg: dict[str, str]) -> bool | None:
    """Value of the `X` in `obj-X`: y/m/objs -> True; $(CONFIG_A) -> its value."""
    if cond in ("y", "m", "objs"):
        return True
    # $(CONFIG_A), ${CONFIG_A}, $(subst m,y,$(CONFIG_A)), $(CONFIG_A:m=y): A's value
    syms = set(re.findall(r"CONFIG_\w+", cond))
    if len(syms) == 1:
        return cfg.get(syms.pop(), "n") in ("y", "m")
    return None


def _if_value(kind: str, arg: str, cfg: dict[str, str]) -> bool | None:
    arg = arg.strip()
    if kind in ("ifdef", "ifndef"):
        m = re.fullmatch(r"(CONFIG_\w+)", arg)
        if not m:
            return None
        v = cfg.get(m.group(1), "") not in ("", "n")
        return v if kind == "ifdef" else not v
    m = re.fullmatch(r"\(\s*\$\((CONFIG_\w+)\)\s*,\s*([ymn]?)\s*\)", arg)
    if not m:
        return None
    v = cfg.get(m.group(1), "") == m.group(2) or (m.group(2) == "n" and m.group(1) not in cfg)
    return v if kind == "ifeq" else not v


def parse_kbuild(text: str, cfg: dict[str, str]) -> list[tuple[str, bool | None, list[str]]]:
    """(variable, condition value, words) of each `var-cond += words` line;
    a line in an ifdef/ifeq block that is false under cfg has value False."""
    text = re.sub(r"\\\n", " ", text)
    stack: list[bool | None] = []
    res = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = _COND_RE.match(line)
        if m:
            stack.append(_if_value(m.group(1), m.group(2), cfg))
            continue
        if line.startswith("else"):
            if stack:
                stack[-1] = None if stack[-1] is None else not stack[-1]
            continue
        if line == "endif":
            if stack:
                stack.pop()
            continue
        m = _ASSIGN_RE.match(line)
        if m:
            val = False if False in stack else _cond_value(m.group(2), cfg)
            res.append((m.group(1), val, m.group(3).split()))
    return res


class Enablement:
    """Is tree-relative x.o built under one .config?  True, False or None
    (no Makefile names it)."""

    def __init__(self, kdir: Path, cfg: dict[str, str], karch: str):
        self.kdir, self.cfg = kdir, cfg
        self.srcarch = {"x86_64": "x86"}.get(karch, karch)
        self._mk: dict[str, list[tuple[str, bool | None, list[str]]]] = {}
        self._dir: dict[str, bool] = {}
        self._busy: set[str] = set()

    def rules(self, d: str) -> list[tuple[str, bool | None, list[str]]]:
        if d not in self._mk:
            text = ""
            for n in ("Kbuild", "Makefile"):
                p = self.kdir / d / n
                if p.is_file():
                    text = p.read_text(errors="replace")
                    break
            self._mk[d] = parse_kbuild(text, self.cfg)
        return self._mk[d]

    def dir_enabled(self, d: str) -> bool:
        if d in self._dir:
            return self._dir[d]
        self._dir[d] = True          # break cycles
        parts = d.split("/")
        if len(parts) == 1:
            v = parts[0] in TOP_DIRS
        elif parts[0] == "arch" and len(parts) == 2:
            v = parts[1] == self.srcarch
        else:
            v = self.listed(d + "/") is True
        self._dir[d] = v
        return v

    def listed(self, rel: str) -> bool | None:
        """Walk up from rel's folder: a Makefile that names rel (or the part
        below its own folder) with a true condition, in an enabled folder."""
        if rel in self._busy:
            return None
        self._busy.add(rel)
        try:
            return self._listed(rel)
        finally:
            self._busy.discard(rel)

    def composite(self, d: str, var: str) -> bool:
        """var-y += x.o: x.o is built when var.o is, or when another list
        that is built names $(var-y) (mac80211-y += $(rc80211_minstrel-y))."""
        if self.listed(f"{d}/{var}.o" if d else f"{var}.o"):
            return True
        refs = {f"$({var}-y)", f"$({var}-objs)", f"$({var}-m)"}
        key = f"{d}/$({var})"
        if key in self._busy:
            return False
        self._busy.add(key)
        try:
            for var2, val2, words2 in self.rules(d):
                if val2 is False or not refs & set(words2):
                    continue
                if var2 in ("obj", "lib") and self.dir_enabled(d):
                    return True
                if var2 not in ("obj", "lib") and self.composite(d, var2):
                    return True
            return False
        finally:
            self._busy.discard(key)

    def _listed(self, rel: str) -> bool | None:
        parts = rel.rstrip("/").split("/")
        is_dir = rel.endswith("/")
        found = False
        for i in range(len(parts) - 1, 0, -1):
            d = "/".join(parts[:i])
            name = "/".join(parts[i:]) + ("/" if is_dir else "")
            names = {name, name.rstrip("/")} if is_dir else {name}
            for var, val, words in self.rules(d):
                if not names & set(words):
                    continue
                found = True
                if val is False:
                    continue
                if var in ("obj", "lib", "subdir", "core", "drivers", "libs", "always"):
                    if self.dir_enabled(d):
                        return True
                elif var not in ("ccflags", "asflags", "ldflags", "hostprogs", "extra",
                                 "targets", "clean-files", "userprogs"):
                    if self.composite(d, var):
                        return True
            if found:
                return False
        return False if found else None


# ---------------------------------------------------------------- trees

def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def prepare_converted(kdir: Path, patch: Path, src: Path, log: Callable[[str], None]) -> None:
    """src = KDIR with all.patch applied; only files of the old or new patch
    are touched on a rerun, and a file whose content did not change keeps its
    mtime (make then rebuilds nothing for it)."""
    stamp = src.parent / (src.name + ".stamp.json")
    data = patch.read_bytes()
    new_files = patched_files(data.decode(errors="replace"))
    old: dict = {}
    if src.is_dir() and stamp.is_file():
        try:
            old = json.loads(stamp.read_text())
        except ValueError:
            old = {}
    if old.get("kdir") != str(kdir):
        old = {}
    if old.get("sha256") == _sha(data):
        return
    if not old:
        log(f"copying {kdir} to {src} (hard links)")
        shutil.rmtree(src, ignore_errors=True)
        src.parent.mkdir(parents=True, exist_ok=True)
        r = subprocess.run(["cp", "-al", str(kdir), str(src)], capture_output=True, text=True)
        if r.returncode:
            raise TreeError(f"cannot copy {kdir} to {src}: {r.stderr.strip().splitlines()[-1:]}")
        before: dict[str, tuple[bytes, float]] = {}
    else:
        touched = sorted(set(old.get("files", [])) | set(new_files))
        log(f"all.patch changed: refreshing {len(touched)} files in {src}")
        before = {}
        for f in touched:
            p = src / f
            if p.is_file():
                before[f] = (p.read_bytes(), p.stat().st_mtime)
                p.unlink()
            if (kdir / f).is_file():
                shutil.copyfile(kdir / f, p)      # new inode, new mtime
    stamp.unlink(missing_ok=True)
    r = subprocess.run(["patch", "-p1", "-s", "-N", "--batch", "--no-backup-if-mismatch",
                        "-d", str(src), "-i", str(patch)], capture_output=True, text=True)
    if r.returncode:
        first = (r.stdout + r.stderr).strip().splitlines()[:1]
        raise TreeError(f"all.patch does not apply to {kdir}: {' '.join(first)} "
                        f"(make convert again, or remove {src})")
    for f in new_files:
        a, b = (src / f).stat(), (kdir / f).stat() if (kdir / f).exists() else None
        if b is not None and (a.st_ino, a.st_dev) == (b.st_ino, b.st_dev):
            raise TreeError(f"patch wrote {f} in place through a hard link: KDIR was changed")
        if f in before and before[f][0] == (src / f).read_bytes():
            os.utime(src / f, (before[f][1], before[f][1]))
    for f, (content, mtime) in before.items():
        if f not in new_files and (src / f).is_file() and (src / f).read_bytes() == content:
            os.utime(src / f, (mtime, mtime))
    stamp.write_text(json.dumps({"kdir": str(kdir), "sha256": _sha(data),
                                 "files": new_files}) + "\n")


def make_vars(arch: Arch, cc: str | None) -> list[str]:
    v = [f"ARCH={arch.karch}"]
    if arch.cross:
        v.append(f"CROSS_COMPILE={arch.cross}")
    if cc:
        words = shlex.split(cc)
        if arch.cross and words and words[-1] == "gcc":
            words[-1] = arch.cross + "gcc"
        v.append("CC=" + shlex.join(words))
    return v


def compiler_of(arch: Arch, cc: str | None) -> str:
    return arch.cross + "gcc"


def kconfig_newest(src: Path) -> float:
    newest = 0.0
    for root, dirs, names in os.walk(src):
        if root == str(src):
            dirs[:] = [d for d in dirs if d not in SCAN_SKIP]
        for n in names:
            if n.startswith("Kconfig"):
                newest = max(newest, os.stat(os.path.join(root, n)).st_mtime)
    return newest


def configure(src: Path, bdir: Path, mvars: list[str], jobs: int,
              kconfig_mtime: float, log: Callable[[str], None], prepare: bool = True,
              allconfig: str = "") -> None:
    """allmodconfig once (again only when Kconfig or the make variables
    changed), then prepare."""
    stamp = bdir / ".detasklet-config"
    cfg = bdir / ".config"
    want = " ".join(mvars) + "\n" + allconfig
    fresh = (cfg.is_file() and stamp.is_file() and stamp.read_text() == want
             and cfg.stat().st_mtime >= kconfig_mtime)
    bdir.mkdir(parents=True, exist_ok=True)
    base = ["make", "-C", str(src), f"O={bdir}", *mvars]
    if not fresh:
        log(f"{bdir.name}: make allmodconfig")
        extra = []
        if allconfig:
            (bdir / "allconfig").write_text(allconfig)
            extra = [f"KCONFIG_ALLCONFIG={bdir / 'allconfig'}"]
        r = subprocess.run([*base, *extra, "-s", "allmodconfig"], capture_output=True, text=True)
        if r.returncode:
            raise TreeError(f"{bdir.name}: allmodconfig failed: "
                            f"{_first_lines(r.stdout + r.stderr, 3)}")
        stamp.write_text(want)
    if not prepare:
        return
    log(f"{bdir.name}: make prepare")
    r = subprocess.run([*base, "-s", f"-j{jobs}", "prepare"], capture_output=True, text=True)
    if r.returncode:
        raise TreeError(f"{bdir.name}: make prepare failed: {_first_lines(r.stdout + r.stderr, 3)}")


def _first_lines(text: str, n: int) -> str:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    err = [i for i, ln in enumerate(lines) if re.search(r"\berror\b|\*\*\*", ln)]
    start = err[0] if err else max(0, len(lines) - n)
    return " | ".join(lines[start:start + n])


# ---------------------------------------------------------------- compiling

_CC_LINE = re.compile(r"^\s+CC( \[M\])?\s+(\S+\.o)\s*$")
_ERR_LINE = re.compile(r"^make\[\d+\]: \*\*\* \[[^\]]*?:\d+: (\S+\.o)\] Error")
_NORULE = re.compile(r"No rule to make target '([^']+)'(?:, needed by '([^']+)')?")


def compile_objects(src: Path, bdir: Path, mvars: list[str], objs: list[str], jobs: int,
                    label: str, log: Callable[[str], None]) -> dict[str, tuple[str, str]]:
    """obj -> ("ok"|"error", first error lines). One make -k for all; each
    object's compiler output is kept together with --output-sync."""
    res: dict[str, tuple[str, str]] = {}
    if not objs:
        return res
    want = set(objs)
    cmd = ["make", "-C", str(src), f"O={bdir}", *mvars, "-k", f"-j{jobs}",
           "--output-sync=target", *objs]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, errors="replace")
    assert proc.stdout is not None
    cur: str | None = None
    prefix = str(src) + "/"
    text: dict[str, list[str]] = {}
    failed: set[str] = set()
    seen: set[str] = set()
    for line in proc.stdout:
        line = line.rstrip("\n")
        m = _CC_LINE.match(line)
        if m:
            cur = m.group(2) if m.group(2) in want else None
            if cur and cur not in seen:
                # One make run can print the same object twice (seen for the
                # cavium/nitrox objects): count each once, so the count never
                # passes the total ("1246/1235" before).
                seen.add(cur)
                log(f"[{label} {len(seen)}/{len(objs)}] {cur}")
            continue
        m = _ERR_LINE.match(line)
        if m:
            o = m.group(1)
            if o in want and o not in failed:
                failed.add(o)
                first = _error_excerpt(text.get(o, []))
                log(f"[{label}] FAILED {o}: {first.splitlines()[0] if first else '(no output)'}")
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
    proc.wait()
    for o in objs:
        if o in failed:
            res[o] = ("error", _error_excerpt(text.get(o, [])))
        elif (bdir / o).is_file():
            res[o] = ("ok", "")
        else:
            res[o] = ("error", _error_excerpt(text.get(o, [])) or
                      f"make exited {proc.returncode} and {o} was not written")
    return res


def _error_excerpt(lines: list[str]) -> str:
    idx = [i for i, ln in enumerate(lines) if re.search(r"\berror\b|No rule", ln)]
    start = idx[0] if idx else 0
    return "\n".join(lines[start:start + LOG_LINES])


# ---------------------------------------------------------------- the run

@dataclass
class ObjResult:
    arch: str
    pristine: str
    converted: str
    log: str = ""


@dataclass
class Outcome:
    objects: dict[str, ObjResult] = field(default_factory=dict)   # x.c -> result
    not_built: dict[str, list[str]] = field(default_factory=dict)   # x.c -> arches tried
    no_rule: set[str] = field(default_factory=set)   # x.c named by no Makefile
    skipped_arches: dict[str, str] = field(default_factory=dict)   # arch -> why


def order_arches(arches: list[str]) -> list[str]:
    return sorted(arches, key=lambda a: (a != "x86_64", DEFAULT_ARCHES.index(a)))


def candidates(objs: Iterable[str], arch: str) -> list[str]:
    return sorted(o for o in objs if arch_for(o) in (None, arch, ARCHES[arch].karch))


def run(job: Job, log: Callable[[str], None]) -> tuple[Outcome, dict[str, set[str]]]:
    data = load_report(job.out)
    converted = sorted(f["path"] for f in data["files"]
                       if isinstance(f, dict) and f.get("status") == "converted")
    if job.files:
        unknown = [f for f in job.files if f not in converted]
        if unknown:
            raise TreeError(f"{unknown[0]} is not a converted file of {job.out / 'report.json'}")
        converted = sorted(job.files)
    for a in job.arches:
        if a not in ARCHES:
            raise TreeError(f"unknown arch {a!r}: choose from {' '.join(ARCHES)}")
    patch = job.out / "all.patch"
    pfiles = set(patched_files(patch.read_text(errors="replace")))
    missing = [f for f in converted if f not in pfiles]
    if missing:
        raise TreeError(f"{missing[0]} is converted in report.json but not in all.patch: "
                        "run make convert again")
    log(f"finding the .c files that include the {len(converted)} converted files ...")
    rev = include_graph(job.kdir)
    by_file = objects_for(converted, rev)
    # A .c that is only #included by another .c has no object of its own:
    # it is checked through its includers (they are in by_file already).
    objs = sorted({o for s in by_file.values() for o in s})
    src = job.build / "src-converted"
    prepare_converted(job.kdir, patch, src, log)
    kmtime = kconfig_newest(job.kdir)
    outcome = Outcome()
    pending = set(objs)
    tried: dict[str, list[str]] = {o: [] for o in objs}
    for name in order_arches(job.arches):
        arch = ARCHES[name]
        cand = candidates(pending, name)
        if not cand:
            continue
        if not shutil.which(compiler_of(arch, job.cc)):
            outcome.skipped_arches[name] = (f"{compiler_of(arch, job.cc)} not found "
                                            f"(apt-get install {arch.package})")
            log(f"{name}: skipped, {outcome.skipped_arches[name]}; {len(cand)} files not tried")
            continue
        mvars = make_vars(arch, job.cc)
        pb, cb = job.build / f"{name}-pristine", job.build / f"{name}-converted"
        configure(job.kdir, pb, mvars, job.jobs, kmtime, log, prepare=False,
                  allconfig=arch.allconfig)
        en = Enablement(job.kdir, read_config(pb), arch.karch)
        built, nrule = [], []
        for o in cand:
            tried[o].append(name)
            v = en.listed(o[:-2] + ".o")
            if v is True:
                built.append(o)
            elif v is None:
                nrule.append(o)
                outcome.no_rule.add(o)
                pending.discard(o)
        log(f"{name}: {len(built)} of {len(cand)} files enabled by allmodconfig"
            + (f" ({len(nrule)} named by no Makefile)" if nrule else ""))
        if not built:
            continue
        dot_o = [o[:-2] + ".o" for o in built]
        configure(src, cb, mvars, job.jobs, kmtime, log, allconfig=arch.allconfig)
        cres = compile_objects(src, cb, mvars, dot_o, job.jobs, f"{name} converted", log)
        # The pristine build decides whether a converted failure is the
        # conversion's: with --pristine failed only those are compiled there.
        again = dot_o if job.pristine == "all" else [o for o in dot_o if cres[o][0] != "ok"]
        if again:
            configure(job.kdir, pb, mvars, job.jobs, kmtime, log, allconfig=arch.allconfig)
        pres = compile_objects(job.kdir, pb, mvars, again, job.jobs, f"{name} pristine", log)
        for o in built:
            p, plog = pres.get(o[:-2] + ".o", ("skipped", ""))
            c, clog = cres[o[:-2] + ".o"]
            if o in outcome.objects and not (p == "ok" or c == "ok"):
                continue        # an earlier arch failed the same way: keep it
            outcome.objects[o] = ObjResult(name, p, c, clog or plog)
            if p == "ok" or c == "ok":
                pending.discard(o)
            if p == "ok" and c == "error":
                log(f"REGRESSION {o} ({name}): {clog.splitlines()[0] if clog else ''}")
    for o in objs:
        if o not in outcome.objects:
            outcome.not_built[o] = tried[o]
    return outcome, by_file


def coverage(kdir: Path, out: Path, build: Path, arches: list[str],
             log: Callable[[str], None]) -> tuple[dict[str, list[str]], dict[str, str]]:
    """Every file of report.json (converted or not) -> the arches whose
    allmodconfig builds one of its objects (the same Kbuild reading that
    chooses where compile-test builds), and for the others why not. Only
    allmodconfig is run (in BUILD/<arch>-pristine), nothing is compiled."""
    files = sorted(f["path"] for f in load_report(out)["files"] if isinstance(f, dict))
    by_file = objects_for(files, include_graph(kdir))
    kmtime = kconfig_newest(kdir)
    ens: dict[str, Enablement] = {}
    missing: list[str] = []
    for name in order_arches(arches):
        arch = ARCHES[name]
        if not shutil.which(compiler_of(arch, None)):
            missing.append(f"{name} ({arch.package} not installed)")
            continue
        pb = build / f"{name}-pristine"
        configure(kdir, pb, make_vars(arch, None), 1, kmtime, log, prepare=False,
                  allconfig=arch.allconfig)
        ens[name] = Enablement(kdir, read_config(pb), arch.karch)
    on: dict[str, list[str]] = {}
    why: dict[str, str] = {}
    for f in files:
        objs = by_file.get(f, set())
        hit = [a for a, en in ens.items()
               if any(o in candidates([o], a) and en.listed(o[:-2] + ".o") for o in objs)]
        if hit:
            on[f] = hit
        elif not objs:
            why[f] = "no .c file includes it"
        elif all(ens[a].listed(o[:-2] + ".o") is None for a in ens for o in objs):
            why[f] = "no Makefile names it"
        else:
            why[f] = ("not enabled by allmodconfig on " + ", ".join(ens)
                      + ("; not tried: " + ", ".join(missing) if missing else ""))
    return on, why


def file_builds(by_file: dict[str, set[str]], outcome: Outcome) -> dict[str, dict]:
    """The per-file "build" record of report.json."""
    res = {}
    for f, objs in sorted(by_file.items()):
        rs = [(o, outcome.objects[o]) for o in sorted(objs) if o in outcome.objects]
        if not rs:
            tried = sorted({a for o in objs for a in outcome.not_built.get(o, [])})
            if not objs:
                why = "no .c file includes it"
            elif objs <= outcome.no_rule:
                why = "no Makefile names it, and no other .c includes it"
            elif tried:
                why = "not enabled by allmodconfig on " + ", ".join(tried)
            else:
                need = sorted({arch_for(o) or "?" for o in objs})
                skipped = [outcome.skipped_arches[a] for a in need if a in outcome.skipped_arches]
                why = (f"only {'/'.join(need)} builds it: " +
                       (skipped[0] if skipped else "not an arch of this run"))
            res[f] = {"arch": "+".join(tried) or "none", "config": "allmodconfig",
                      "pristine": "not-built", "converted": "not-built", "log": why}
            continue

        def worst(vals: list[str]) -> str:
            return ("error" if "error" in vals else "ok" if all(v == "ok" for v in vals)
                    else "skipped")
        regress = [(o, r) for o, r in rs if r.pristine == "ok" and r.converted == "error"]
        bad = regress or [(o, r) for o, r in rs if r.converted == "error"]
        rec = {"arch": "+".join(sorted({r.arch for _, r in rs},
                                       key=DEFAULT_ARCHES.index)),
               "config": "allmodconfig",
               "pristine": worst([r.pristine for _, r in rs]),
               "converted": worst([r.converted for _, r in rs]),
               "log": (f"{bad[0][0]}: {bad[0][1].log}" if bad and bad[0][0] != f
                       else bad[0][1].log if bad else "")}
        if rec["pristine"] == "skipped":
            # --pristine failed: the converted objects built, so the pristine
            # ones were not compiled. The schema has no "skipped"; say so.
            rec["pristine"] = "not-built"
            rec["pristine_compiled"] = False
            rec["log"] = rec["log"] or ("pristine not compiled: the converted objects "
                                        "built (PRISTINE=all compiles it too)")
        if f.endswith(".h") or len(rs) > 1:
            rec["objects"] = len(rs)
        if regress:
            rec["regression"] = True
        res[f] = rec
    return res


def regressions(builds: dict[str, dict]) -> list[str]:
    return [f for f, b in builds.items() if b.get("regression")]


def built(b: dict) -> bool:
    """Whether a file's build record shows it compiled on some arch, pristine
    or converted (a pristine that was not compiled has converted "ok")."""
    return b["pristine"] != "not-built" or b["converted"] != "not-built"


def md_section(builds: dict[str, dict], outcome: Outcome, arches: list[str]) -> list[str]:
    lines = ["## Build", "",
             f"`make compile-test`, allmodconfig, arches tried: {' '.join(order_arches(arches))}.", ""]
    reg = regressions(builds)
    lines.append(f"Regressions (pristine builds, converted does not): {len(reg)}.")
    lines.append("")
    for f in reg:
        first = builds[f]["log"].splitlines()[:1]
        lines.append(f"- **`{f}`** ({builds[f]['arch']}): `{first[0] if first else ''}`")
    if reg:
        lines.append("")
    counts: dict[str, dict[str, int]] = {}
    for f, b in builds.items():
        for a in b["arch"].split("+") if built(b) else ["not built"]:
            c = counts.setdefault(a, {"files": 0, "ok": 0, "regression": 0, "pristine error": 0})
            c["files"] += 1
            if b.get("regression"):
                c["regression"] += 1
            elif b["pristine"] == "error":
                c["pristine error"] += 1
            elif b["converted"] == "ok":
                c["ok"] += 1
    lines += ["| arch | files | builds converted | regression | error already pristine |",
              "|---|---:|---:|---:|---:|"]
    for a in sorted(counts, key=lambda a: DEFAULT_ARCHES.index(a) if a in ARCHES else 99):
        c = counts[a]
        lines.append(f"| {a} | {c['files']} | {c['ok']} | {c['regression']} | {c['pristine error']} |")
    n = len(builds)
    nb = sum(built(b) for b in builds.values())
    lines += ["", f"{nb} of {n} converted files built on some arch ({100 * nb / max(n, 1):.1f}%)."]
    pe = [f for f, b in builds.items() if b["pristine"] == "error" and not b.get("regression")]
    if pe:
        lines += ["", "Already failing before the conversion:", ""]
        lines += [f"- `{f}` ({builds[f]['arch']}): `{(builds[f]['log'].splitlines() or [''])[0]}`"
                  for f in pe]
    nbl = [f for f, b in builds.items() if not built(b)]
    if nbl:
        lines += ["", "Not built on any arch tried:", ""]
        lines += [f"- `{f}`: {builds[f]['log']}" for f in nbl]
    for a, why in outcome.skipped_arches.items():
        lines.append(f"- arch {a} skipped: {why}")
    return lines


def main(job: Job) -> int:
    def log(msg: str) -> None:
        if not job.quiet or "FAILED" in msg or msg.startswith("REGRESSION"):
            print(msg, file=sys.stderr, flush=True)
    start = time.time()
    outcome, by_file = run(job, log)
    builds = file_builds(by_file, outcome)
    from . import report
    report.add_build(job.out, builds, md_section(builds, outcome, job.arches))
    reg = regressions(builds)
    nb = sum(built(b) for b in builds.values())
    nerr = sum(b["pristine"] == "error" and not b.get("regression") for b in builds.values())
    print(f"compile-test: {len(builds)} converted files, {len(outcome.objects)} objects on "
          f"{len({r.arch for r in outcome.objects.values()})} arches in {time.time() - start:.0f} s: "
          f"{nb} built ({100 * nb / max(len(builds), 1):.1f}%), {len(reg)} regressions, "
          f"{nerr} already failing pristine, {len(builds) - nb} not built; "
          f"report: {job.out / 'report.md'}")
    for f in reg:
        print(f"REGRESSION {f} ({builds[f]['arch']}):\n  " +
              "\n  ".join(builds[f]["log"].splitlines()[:LOG_LINES]))
    if job.strict:
        bad = [f for f, b in builds.items() if b["converted"] != "ok"]
        for f in bad:
            if f not in reg:
                print(f"NOT OK {f} ({builds[f]['arch']}): converted {builds[f]['converted']}, "
                      f"pristine {builds[f]['pristine']}: "
                      f"{(builds[f]['log'].splitlines() or [''])[0]}")
        print(f"compile-test: {len(builds) - len(bad)} passed, {len(bad)} failed")
        return 1 if bad else 0
    return 1 if reg else 0
