# SPDX-License-Identifier: GPL-2.0-only
"""The one Kbuild reader: what a folder's Makefile builds, and under which
configuration.

parse() reads the `var-cond += words` lines of a folder's Kbuild (or
Makefile), with the ifdef/ifeq blocks around each. modules() maps each
object to the module it is linked into, whatever the conditions (which
driver a file belongs to). Enablement answers whether kbuild builds an
object under one .config: its folder Makefile lists it (obj-$(CONFIG_X)
+= x.o, or a composite m-$(CONFIG_Y) += x.o whose m.o is enabled) and
every folder above it is descended into, with the symbols of that .config.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_ASSIGN_RE = re.compile(
    r"^([A-Za-z0-9_.-]+?)-(y|m|objs|\$[({](?:[^(){}]|\([^()]*\))*[)}])\s*[:+]?=\s*(.*)$")
_COND_RE = re.compile(r"^(ifdef|ifndef|ifeq|ifneq)\s*(.*)$")
# A reference to another object list, `$(gt-y)` or `$(foo-objs)`.
_LIST_REF_RE = re.compile(r"\$[({]([A-Za-z0-9_.-]+?)-(?:y|objs)[)}]")
# Variables that name no object of a module.
_NOT_OBJECTS = ("lib", "extra", "always", "hostprogs", "subdir", "ccflags", "asflags",
                "ldflags", "targets", "clean")
# Top folders kbuild always descends into (Makefile core-y/drivers-y/libs-y).
TOP_DIRS = frozenset({"init", "kernel", "mm", "fs", "ipc", "security", "crypto",
                      "block", "io_uring", "drivers", "sound", "net", "lib",
                      "virt", "certs", "usr"})


@dataclass(frozen=True)
class Line:
    var: str                                     # obj, lib, a composite name...
    cond: str                                    # y, m, objs, $(CONFIG_X)...
    words: tuple[str, ...]
    guards: tuple[tuple[str, str, bool], ...]    # (ifdef..., its argument, in its else)


def read(kdir: Path, folder: str) -> str:
    """The Kbuild file of folder (Kbuild, else Makefile), or ''."""
    for n in ("Kbuild", "Makefile"):
        p = kdir / folder / n
        if p.is_file():
            return p.read_text(errors="replace")
    return ""


def parse(text: str) -> list[Line]:
    text = re.sub(r"\\\n", " ", text)
    stack: list[tuple[str, str, bool]] = []
    res = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = _COND_RE.match(line)
        if m:
            stack.append((m.group(1), m.group(2), False))
        elif line.startswith("else"):
            if stack:
                kind, arg, neg = stack[-1]
                stack[-1] = (kind, arg, not neg)
        elif line == "endif":
            if stack:
                stack.pop()
        elif m := _ASSIGN_RE.match(line):
            res.append(Line(m.group(1), m.group(2), tuple(m.group(3).split()), tuple(stack)))
    return res


def modules(text: str) -> dict[str, str]:
    """object stem -> the module (composite object) it is linked into; a
    stem built on its own maps to itself."""
    parts: dict[str, set[str]] = {}
    targets: set[str] = set()
    lists: dict[str, set[str]] = {}     # i915-y += $(gt-y): gt's objects are i915's
    for ln in parse(text):
        words = " ".join(ln.words)
        objs = re.findall(r"([\w/-]+)\.o\b", words)
        if ln.var == "obj":
            targets.update(objs)
        elif ln.var not in _NOT_OBJECTS:
            parts.setdefault(ln.var, set()).update(objs)
            lists.setdefault(ln.var, set()).update(_LIST_REF_RE.findall(words))
    for name, refs in lists.items():
        parts[name].update(r for r in refs if r in parts and r != name)
    mod: dict[str, str] = {t: t for t in targets}
    for name, members in sorted(parts.items()):
        for o in members:
            if o != name and (mod.get(o, o) == o):
                mod[o] = name
    # a composite inside a composite: follow to the outer one
    for o in list(mod):
        seen = {o}
        while mod.get(mod[o], mod[o]) != mod[o] and mod[o] not in seen:
            seen.add(mod[o])
            mod[o] = mod[mod[o]]
    return mod


# ---- under one .config ---------------------------------------------------------

def read_config(build: Path) -> dict[str, str]:
    cfg: dict[str, str] = {}
    for line in (build / ".config").read_text(errors="replace").splitlines():
        m = re.match(r"^(CONFIG_\w+)=(.*)$", line)
        if m:
            cfg[m.group(1)] = m.group(2).strip('"')
    return cfg


def _cond_value(cond: str, cfg: dict[str, str]) -> bool | None:
    """Value of the X in obj-X: y/m/objs -> True; $(CONFIG_A) -> its value."""
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


def value(line: Line, cfg: dict[str, str]) -> bool | None:
    """Whether line adds its words under cfg: False in a false ifdef/ifeq
    block, else its condition's value (None: cannot tell)."""
    for kind, arg, neg in line.guards:
        v = _if_value(kind, arg, cfg)
        if v is not None and v == neg:
            return False
    return _cond_value(line.cond, cfg)


class Enablement:
    """Is tree-relative x.o built under one .config? True, False or None
    (no Makefile names it)."""

    def __init__(self, kdir: Path, cfg: dict[str, str], karch: str):
        self.kdir, self.cfg = kdir, cfg
        self.srcarch = {"x86_64": "x86"}.get(karch, karch)
        self._mk: dict[str, list[tuple[str, bool | None, tuple[str, ...]]]] = {}
        self._dir: dict[str, bool] = {}
        self._busy: set[str] = set()

    def rules(self, d: str) -> list[tuple[str, bool | None, tuple[str, ...]]]:
        if d not in self._mk:
            self._mk[d] = [(ln.var, value(ln, self.cfg), ln.words)
                           for ln in parse(read(self.kdir, d))]
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



def _module_at(kdir: Path, path: str, mods: dict[str, dict[str, str]]) -> tuple[str, str, str]:
    """(folder, path's object relative to it, module) of the kbuild file
    (path's folder's, or one up to three folders above that names it by a
    relative path) that links path's object in; ("", "", "") when none."""
    if not path.endswith(".c"):
        return "", "", ""
    stem = path[:-2]
    d = path.rpartition("/")[0]
    for _ in range(4):
        if d not in mods:
            mods[d] = modules(read(kdir, d))
        rel = stem[len(d) + 1:] if d else stem
        if rel in mods[d]:
            return d, rel, mods[d][rel]
        if not d:
            break
        d = d.rpartition("/")[0]
    return "", "", ""


def module_key(kdir: Path, path: str, mods: dict[str, dict[str, str]]) -> str:
    """'folder:module' of the kbuild module that links path's object in;
    '' for a header or a file no kbuild file names. mods: a cache of
    modules() by folder."""
    d, rel, mod = _module_at(kdir, path, mods)
    return f"{d}:{mod}" if rel else ""


def module_files(kdir: Path, path: str, mods: dict[str, dict[str, str]]) -> list[str]:
    """The other .c files of the kbuild module that links path's object in
    (tree-relative, sorted): the objects its kbuild file links into the
    same composite object (`m-y := a.o b.o`, `m-objs`), those whose .c
    file exists. [] for a header, an object built on its own, or a file no
    kbuild file names. mods: a cache of modules() by folder."""
    d, rel, mod = _module_at(kdir, path, mods)
    if not rel:
        return []
    return sorted(f"{d}/{o}.c" if d else f"{o}.c" for o, m in mods[d].items()
                  if m == mod and o != rel and (kdir / d / f"{o}.c").is_file())
