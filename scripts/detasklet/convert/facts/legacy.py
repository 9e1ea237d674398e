# SPDX-License-Identifier: GPL-2.0-only
"""Stage 2: legacy tasklet_init() callbacks, whose data is the container.

tasklet_init(&E->f, cb, data) stores data in the tasklet, and the core
calls cb(data). When data is the object that contains f, in every init of
cb, cocci/20-legacy-init.cocci rewrites the init to INIT_WORK() and the
callback's (T *)data casts to from_work(): the same pointer. This module
proves the container (legacy_fields), following an alias of it
(mdev = &dev->g; dev = container_of(mdev, ...)), and finds the files near
the group that define or declare such a callback without naming the
tasklet API (callback_files): they convert with the group.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from ...ctext.lex import mask
from ...ctext.sources import SOURCE_SUFFIXES, read_text
from ...ctext.tasklet import CONTAINER_INIT_RE, INIT_CB_RE, INIT_RE, PARAM


def def_re(cb: str) -> re.Pattern[str]:
    """The definition of legacy callback cb; group 1 is its parameter."""
    return re.compile(r"\b" + cb + r"\s*\(\s*" + PARAM + r"\s+(\w+)\s*\)\s*\{")


def decl_re(names: set[str]) -> re.Pattern[str]:
    """A definition or prototype of one of the legacy callbacks names."""
    return re.compile(r"\b(" + "|".join(sorted(names)) + r")\s*\(\s*" + PARAM + r"\b")


def _norm(e: str) -> str:
    e = re.sub(r"\s+", "", e)
    while e.startswith("(") and e.endswith(")"):
        e = e[1:-1]
    return e


def legacy_fields(codes: list[str]) -> dict[str, str]:
    """callback -> tasklet field (a path, g.f, through a member), for legacy
    inits whose data is the container, and only for callbacks used with
    one field everywhere."""
    seen: dict[str, set[str]] = {}
    for code in codes:
        for m in INIT_RE.finditer(code):
            lm = CONTAINER_INIT_RE.match(m.group(0))
            cb = INIT_CB_RE.match(m.group(0))
            if not cb:
                continue
            ok = lm is not None and (_norm(lm["data"]) == _norm(lm["d"]) and (
                (lm["op"] == "->" and not lm["amp"]) or (lm["op"] == "." and lm["amp"]))
                or _first_element(lm))
            fld = lm["f"] if ok and lm else ""
            if lm and not ok and lm["op"] == "->" and not lm["amp"]:
                fld = _alias_path(code[:m.start()], _norm(lm["d"]), _norm(lm["data"]), lm["f"])
            if lm and not ok and lm["op"] == "." and not lm["amp"]:
                # &D->g.f with data D: the tasklet sits in member g of D.
                sub = re.fullmatch(re.escape(_norm(lm["data"])) + r"->(\w+(?:\.\w+)*)",
                                   _norm(lm["d"]))
                fld = f"{sub.group(1)}.{lm['f']}" if sub else ""
            seen.setdefault(cb.group(1), set()).add(fld)
    return {cb: fs.pop() for cb, fs in seen.items() if len(fs) == 1 and "" not in fs}


def _first_element(lm: re.Match[str]) -> bool:
    """tasklet_init(&A[0].f, cb, (cast)A): the data A is &A[0], the
    element that contains f, whether A is an array or a pointer (qat's
    VF bank 0: &priv_data->banks[0].resp_handler with priv_data->banks)."""
    return (lm["op"] == "." and not lm["amp"]
            and _norm(lm["d"]) == _norm(lm["data"]) + "[0]")


def _alias_path(before: str, ptr: str, data: str, f: str) -> str:
    """tasklet_init(&mdev->f, cb, (cast)dev) after 'mdev = &dev->g;' or
    'dev = container_of(mdev, struct outer, g);': the tasklet is dev->g.f,
    so dev is its container through the path g.f. Only when that is the
    last assignment before the init (and mdev is not assigned after it)."""
    if not re.fullmatch(r"\w+", ptr) or not re.fullmatch(r"\w+", data):
        return ""

    def last(var: str, text: str) -> re.Match[str] | None:
        found = list(re.finditer(r"(?<![=!<>\w.>])" + var + r"\s*=(?!=)\s*([^;]*);", text))
        return found[-1] if found else None

    a = last(ptr, before)
    if a:
        m = re.fullmatch(r"&\s*" + data + r"\s*->\s*(\w+)", a.group(1).strip())
        if m:
            return f"{m.group(1)}.{f}"
    # dev = container_of(mdev, struct outer, g), mdev not assigned after it.
    d = last(data, before)
    if d:
        m = re.fullmatch(r"container_of\s*\(\s*" + ptr + r"\s*,[^,]+,\s*(\w+)\s*\)",
                         d.group(1).strip())
        if m and not last(ptr, before[d.end():]):
            return f"{m.group(1)}.{f}"
    return ""


def callbacks_to_find(codes: list[str], fields: dict[str, str]) -> set[str]:
    """The legacy callbacks to look for near the group: the from_work()
    ones, and the others whose definition is not in the group."""
    joined = "\n".join(codes)
    return set(fields) | {cb for cb in INIT_CB_RE.findall(joined)
                          if not def_re(cb).search(joined)}


def callback_files(kdir: Path, files: list[str], names: set[str]) -> dict[str, str]:
    """Files near the group (its folders and their parents) that define or
    declare one of the legacy callbacks names without naming the tasklet
    API, with their masked text, in path order."""
    return near_files(kdir, files, names, decl_re(names))


def near_files(kdir: Path, files: list[str], names: set[str], pat: re.Pattern[str]
               ) -> dict[str, str]:
    """The files near the group (its folders and their parents), not in it,
    whose masked text matches pat (one of names must be in the raw text),
    with that masked text, in path order."""
    dirs = {posixpath.dirname(f) for f in files}
    dirs |= {posixpath.dirname(d) for d in dirs if "/" in d}
    found: dict[str, str] = {}
    for d in sorted(dirs):
        base = kdir / d
        if not base.is_dir():
            continue
        for p in sorted(base.iterdir()):
            rel = posixpath.join(d, p.name) if d else p.name
            if p.suffix in SOURCE_SUFFIXES and rel not in files and p.is_file():
                raw = read_text(p)
                if not any(n in raw for n in names):
                    continue            # masking is the cost; a name is needed
                code = mask(raw)
                if pat.search(code):
                    found[rel] = code
    return dict(sorted(found.items()))
