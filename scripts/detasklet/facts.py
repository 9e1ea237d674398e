"""Cross-file facts: which files share a tasklet, and what a group does.

A header that declares a tasklet (a field, a prototype) and every file that
includes it form one group: they convert together or not at all. The
include graph is followed through quoted includes and through <...>
includes that resolve inside the tree's include/ folder.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from typing import Any
from pathlib import Path

from . import legacydata
from .scan import FileScan, functions, read_text, strip_comments

_INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
_HI_RE = re.compile(r"\btasklet_hi_schedule\s*\(([^;]*)\)\s*;")
_FIELD_RE = re.compile(r"\bstruct\s+tasklet_struct\s*\*?\s*(\w+)")
_INTERNAL = ("func", "data", "callback", "use_callback", "count", "next", "state")
# The uses of ->state with an equivalent (50-state.cocci, and the open-coded
# schedule of 45-open-coded-schedule.cocci): not internal. Any other
# test_and_set_bit() is left as API by the rules, and classify refuses it.
_SCHED_TEST_RE = re.compile(r"\b(?:test_bit|test_and_set_bit)\s*\(\s*TASKLET_STATE_SCHED\s*,"
                            r"\s*&[^;]*?\bstate\s*\)")


def key(expr: str) -> str:
    """The name that identifies a tasklet expression: its last identifier."""
    names = re.findall(r"[A-Za-z_]\w*", re.sub(r"\[[^\]]*\]", "", expr))
    return names[-1] if names else expr.strip()


def includes(kdir: Path, rel: str, text: str) -> list[str]:
    """Tree-relative paths of the headers rel includes that exist."""
    out = []
    here = posixpath.dirname(rel)
    for kind, name in _INCLUDE_RE.findall(text):
        cands = [posixpath.normpath(posixpath.join(here, name))] if kind == '"' else []
        cands.append(posixpath.join("include", name))
        for c in cands:
            if (kdir / c).is_file():
                out.append(c)
                break
    return out


# tasklet_init(&D->F, cb, (cast)D) or tasklet_init(&D.F, cb, (cast)&D); cb may be
# cast to (void *) when it takes a void * (ibmvfc)
_LEGACY_RE = re.compile(
    r"\btasklet_init\s*\(\s*&\s*(?P<d>[^,]+?)\s*(?P<op>->|\.)\s*(?P<f>\w+)\s*,"
    r"\s*(?:\(\s*void\s*\*\s*\)\s*)?(?P<cb>\w+)\s*,\s*\(\s*[\w\s]+\)\s*(?P<amp>&?)\s*"
    r"(?P<data>[^;]+?)\s*\)\s*;")


def _norm(e: str) -> str:
    e = re.sub(r"\s+", "", e)
    while e.startswith("(") and e.endswith(")"):
        e = e[1:-1]
    return e


def legacy_fields(codes: list[str]) -> dict[str, str]:
    """callback -> tasklet field, for legacy inits whose data is the
    container, and only for callbacks used with one field everywhere."""
    seen: dict[str, set[str]] = {}
    for code in codes:
        for m in re.finditer(r"\btasklet_init\s*\([^;]*;", code):
            lm = _LEGACY_RE.match(m.group(0))
            cb = re.match(r"\btasklet_init\s*\([^,]*,\s*(?:\(\s*void\s*\*\s*\)\s*)?(\w+)",
                          m.group(0))
            if not cb:
                continue
            ok = lm and _norm(lm["data"]) == _norm(lm["d"]) and (
                (lm["op"] == "->" and not lm["amp"]) or (lm["op"] == "." and lm["amp"]))
            fld = lm["f"] if ok else ""
            if lm and not ok and lm["op"] == "->" and not lm["amp"]:
                fld = _alias_path(code[:m.start()], _norm(lm["d"]), _norm(lm["data"]), lm["f"])
            if lm and not ok and lm["op"] == "." and not lm["amp"]:
                # &D->g.f with data D: the tasklet sits in member g of D.
                sub = re.fullmatch(re.escape(_norm(lm["data"])) + r"->(\w+(?:\.\w+)*)",
                                   _norm(lm["d"]))
                fld = f"{sub.group(1)}.{lm['f']}" if sub else ""
            seen.setdefault(cb.group(1), set()).add(fld)
    return {cb: fs.pop() for cb, fs in seen.items() if len(fs) == 1 and "" not in fs}


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


@dataclass
class Group:
    files: list[str]
    hi_keys: set[str] = field(default_factory=set)
    refusals: dict[str, str] = field(default_factory=dict)   # file -> reason
    legacy: dict[str, str] = field(default_factory=dict)     # callback -> field
    # callbacks that keep their body, their argument a local (legacydata.py)
    legacy_local: dict[str, legacydata.LocalCb] = field(default_factory=dict)
    hints: dict[str, str] = field(default_factory=dict)      # file -> why tasklet_init stays
    extra: list[str] = field(default_factory=list)           # callback-only files
    notes: dict[str, list[str]] = field(default_factory=dict)  # file -> for the reviewer
    sync_helpers: set[str] = field(default_factory=set)     # reach a sync tasklet call
    plan: Any = None                  # sites.Plan: the verdict of every site

    def env(self) -> dict[str, str]:
        return {"DETASKLET_HI_KEYS": ",".join(sorted(self.hi_keys)),
                "DETASKLET_LEGACY": ",".join(f"{c}={f}" for c, f in sorted(self.legacy.items())),
                "DETASKLET_LEGACY_LOCAL": legacydata.env_value(self.legacy_local),
                "DETASKLET_DATA_FIELDS": ",".join(sorted(
                    c.field for c in self.legacy_local.values() if c.kind == "field")),
                "DETASKLET_SYNC_HELPERS": ",".join(sorted(self.sync_helpers))}


class _UnionFind:
    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: str, b: str) -> None:
        self.parent[self.find(a)] = self.find(b)


def reachable_users(kdir: Path, rel: str, users: set[str],
                    cache: dict[str, list[str]], depth: int = 0) -> set[str]:
    """User headers reachable from rel through quoted includes (and any
    include that is itself a user)."""
    if rel not in cache:
        try:
            cache[rel] = includes(kdir, rel, read_text(kdir / rel))
        except OSError:
            cache[rel] = []
    found: set[str] = set()
    if depth > 6:
        return found
    for inc in cache[rel]:
        if inc in users:
            found.add(inc)
        if not inc.startswith("include/") or inc in users:
            found |= reachable_users(kdir, inc, users, cache, depth + 1)
    return found


def group_files(kdir: Path, scans: list[FileScan]) -> list[Group]:
    users = {s.path for s in scans}
    uf = _UnionFind()
    cache: dict[str, list[str]] = {}
    for s in scans:
        uf.find(s.path)
        for h in reachable_users(kdir, s.path, users, cache):
            uf.union(s.path, h)
    members: dict[str, list[str]] = {}
    for s in scans:
        members.setdefault(uf.find(s.path), []).append(s.path)
    groups = [Group(sorted(m)) for m in members.values()]
    for g in groups:
        examine(kdir, g)
    # A callback-only file found for two groups joins them into one.
    owner: dict[str, int] = {}
    for i, g in enumerate(groups):
        for f in g.extra:
            if f in owner:
                uf.union(groups[owner[f]].files[0], g.files[0])
            owner[f] = i
    merged: dict[str, list[Group]] = {}
    for g in groups:
        merged.setdefault(uf.find(g.files[0]), []).append(g)
    groups = []
    for parts in merged.values():
        if len(parts) == 1:
            groups.append(parts[0])
            continue
        # Only a merged group needs its facts again.
        g = Group(sorted({f for p in parts for f in p.files}))
        examine(kdir, g)
        groups.append(g)
    for g in groups:
        g.files = sorted(set(g.files) | set(g.extra))
    return sorted(groups, key=lambda g: g.files[0])


def examine(kdir: Path, g: Group) -> None:
    """Fill the group's facts and the reasons its files cannot convert."""
    hi: set[str] = set()
    names: set[str] = set()
    codes = {f: strip_comments(read_text(kdir / f)) for f in g.files}
    for code in codes.values():
        hi |= {key(a) for a in _HI_RE.findall(code)}
        names |= set(_FIELD_RE.findall(code))
    g.hi_keys = hi
    g.sync_helpers = sync_helpers(list(codes.values()))
    g.legacy = legacy_fields(list(codes.values()))
    # Callbacks to look for next to the group: the from_work() ones, and the
    # other legacy ones whose definition is not in the group (legacydata).
    joined = "\n".join(codes.values())
    names_cb = set(g.legacy) | {cb for cb in legacydata.INIT_CB_RE.findall(joined)
                                if not legacydata.def_re(cb).search(joined)}
    extra = callback_files(kdir, g, names_cb) if names_cb else {}
    g.legacy_local, g.hints = legacydata.locals_for({**codes, **extra}, g.legacy)
    for cb, c in g.legacy_local.items():
        g.legacy.pop(cb, None)          # the from_work() rules leave it alone
        g.notes.setdefault(c.home, []).append(legacydata.note(c, cb))
    # Keep only the callback-only files of callbacks that convert.
    keep = set(g.legacy) | set(g.legacy_local)
    used = legacydata.decl_re(keep) if keep else None
    g.extra = [f for f, t in extra.items() if used and used.search(t)]
    internal = re.compile(r"\b(" + "|".join(sorted(names)) + r")\s*(?:\.|->)\s*("
                          + "|".join(_INTERNAL) + r")\b") if names else None
    for f, code in codes.items():
        why = in_atomic_refusal(code, joined)
        if why:
            g.refusals[f] = why
            continue
        why = atomic_entry(code, g.sync_helpers)
        if why:
            g.refusals[f] = why
            continue
        if internal is None:
            continue
        masked = _SCHED_TEST_RE.sub(lambda t: re.sub(r"\S", " ", t.group(0)), code)
        m = next((m for m in internal.finditer(masked) if _is_tasklet_at(masked, m)), None)
        if m:
            line = code.count("\n", 0, m.start()) + 1
            g.refusals[f] = (f"tasklet internals: '{m.group(0)}' at line {line} has no "
                             "work_struct equivalent")


_IN_ATOMIC_RE = re.compile(r"\btasklet_disable_in_atomic\s*\(([^;]*)\)\s*;")
_SIDE_EFFECT_RE = re.compile(r"(\w+)\s*\(|\+\+|--|[^=!<>]=(?!=)")


def in_atomic_refusal(code: str, group_code: str) -> str:
    """Why a tasklet_disable_in_atomic() of this file cannot take the
    rewrite of cocci/40-calls.cocci, which names its argument twice
    (disable_work(E); while (work_busy(E) ...)): an argument with a side
    effect. A call is one unless it is a function-like macro of the group
    whose body has none (eni's ENI_DEV(d), a cast of d->dev_data). "" when
    every site takes the rewrite."""
    for m in _IN_ATOMIC_RE.finditer(code):
        for s in _SIDE_EFFECT_RE.finditer(m.group(1)):
            if s.group(1) and _pure_macro(s.group(1), group_code):
                continue
            line = code.count("\n", 0, m.start()) + 1
            return (f"tasklet_disable_in_atomic() at line {line}: its argument "
                    f"'{m.group(1).strip()}' has a side effect ('{s.group(0).strip()}'), and "
                    "its replacement names it twice")
    return ""


def _pure_macro(name: str, code: str) -> bool:
    d = re.search(r"^[ \t]*#[ \t]*define[ \t]+" + re.escape(name) + r"\(([^)]*)\)(.*)$",
                  code, re.M)
    if not d or d.group(2).rstrip().endswith("\\"):
        return False                    # not a macro of the group, or a long one
    return _SIDE_EFFECT_RE.search(d.group(2)) is None


def _is_tasklet_at(code: str, m: re.Match[str]) -> bool:
    """Whether the NAME of a NAME->member match is a tasklet. A member
    (x->NAME.state) is taken as one: the name was declared as a tasklet
    field. A plain variable (t->next) is one only if the function around
    the match declares it struct tasklet_struct: brcmsmac's timer loop
    variable t is not the t of its tasklet callback."""
    name = m.group(1)
    if re.search(r"(?:\.|->)\s*$", code[:m.start()]):
        return True
    n = re.escape(name)
    if re.search(r"^(?:static\s+|extern\s+)*struct\s+tasklet_struct\s*\*?\s*" + n + r"\b"
                 r"|\bDECLARE_TASKLET\w*\(\s*" + n + r"\b", code, re.M):
        return True                                   # a file-scope tasklet
    start = code.rfind("\n{", 0, m.start())          # kernel style: { in column 0
    head = code.rfind("\n\n", 0, start) if start >= 0 else -1
    scope = code[max(head, 0):m.start()]
    return re.search(r"\bstruct\s+tasklet_struct\s*\*?\s*" + re.escape(name) + r"\b",
                     scope) is not None


# Callbacks that always run in atomic context, by how they are registered:
# (pattern whose group 1 is the function, what runs it).
_ATOMIC_ENTRIES = [
    (r"\.ndo_tx_timeout\s*=\s*(\w+)", "ndo_tx_timeout, with the tx lock held"),
    (r"\btimer_setup\s*\([^;]*?,\s*(\w+)\s*,", "a timer callback, in softirq"),
    (r"\b(?:request_irq|request_threaded_irq)\s*\(\s*[^,;]+,\s*(\w+)\s*,",
     "an interrupt handler, in hardirq"),
    (r"\bdevm_request_irq\s*\(\s*[^,;]+,\s*[^,;]+,\s*(\w+)\s*,",
     "an interrupt handler, in hardirq"),
    (r"\b(?:tasklet_setup|tasklet_init)\s*\([^;]*?,\s*(\w+)\s*[,)]",
     "a tasklet callback, in softirq"),
    (r"\bDECLARE_TASKLET\w*\s*\(\s*\w+\s*,\s*(\w+)", "a tasklet callback, in softirq"),
    # timer_list and hrtimer callbacks set by hand, DEFINE_TIMER, hrtimer_setup (6.13)
    (r"(?:\.|->)function\s*=\s*(\w+)\s*;", "a timer callback (.function), in softirq "
     "or hardirq"),
    (r"\bDEFINE_TIMER\s*\(\s*\w+\s*,\s*(\w+)", "a timer callback, in softirq"),
    (r"\bhrtimer_setup\s*\(\s*[^,;]+,\s*(\w+)\s*,", "an hrtimer callback, in hardirq"),
    (r"\bdevm_request_threaded_irq\s*\(\s*[^,;]+,\s*[^,;]+,\s*(\w+)\s*,",
     "an interrupt handler, in hardirq"),
    (r"\b(?:request_any_context_irq|request_percpu_irq)\s*\(\s*[^,;]+,\s*(\w+)\s*,",
     "an interrupt handler, in hardirq"),
    (r"\.ndo_start_xmit\s*=\s*(\w+)", "ndo_start_xmit, with bottom halves off"),
    (r"\bnetif_napi_add\w*\s*\(\s*[^,;]+,\s*[^,;]+,\s*(\w+)", "a NAPI poll, in softirq"),
    (r"\bcall_rcu(?:_hurry)?\s*\(\s*[^,;]+,\s*(\w+)\s*\)", "an RCU callback, in softirq"),
    (r"\binit_irq_work\s*\(\s*[^,;]+,\s*(\w+)\s*\)", "an irq_work callback, in hardirq"),
]


def atomic_entry(code: str, helpers: set[str]) -> str:
    """Why a sync tasklet call of this file can run in atomic context:
    a callback registered as one that runs there (ndo_tx_timeout, timer,
    interrupt handler, tasklet) reaches tasklet_kill/disable/unlock_wait,
    itself or through the group's sync helpers. "" when none does."""
    for pat, what in _ATOMIC_ENTRIES:
        for m in re.finditer(pat, code):
            if m.group(1) in helpers:
                line = code.count("\n", 0, m.start()) + 1
                return (f"{m.group(1)}() reaches a tasklet kill/disable/unlock_wait and runs "
                        f"as {what} (registered at line {line}): the work_struct sync "
                        "calls may sleep there (CONTRACT.md pitfall 2)")
    return ""


_SYNC_RE = re.compile(r"\b(?:tasklet_kill|tasklet_disable|tasklet_unlock_wait)\s*\(")


def sync_helpers(codes: list[str]) -> set[str]:
    """Functions of the group that call tasklet_kill/disable/unlock_wait,
    directly or through each other: cocci/15-sync-in-atomic.cocci looks
    for calls of these under a lock too."""
    bodies: dict[str, str] = {}
    for code in codes:
        bodies.update(functions(code))
    found = {n for n, b in bodies.items() if _SYNC_RE.search(b)}
    while True:
        calls = re.compile(r"\b(" + "|".join(sorted(found)) + r")\s*\(") if found else None
        more = {n for n, b in bodies.items() if n not in found and calls and calls.search(b)}
        if not more:
            return found
        found |= more


def callback_files(kdir: Path, g: Group, names: set[str]) -> dict[str, str]:
    """Files near the group (its folders and their parents) that define or
    declare one of the legacy callbacks names without naming the tasklet
    API, with their comment-stripped text, in path order."""
    pat = legacydata.decl_re(names)
    dirs = {posixpath.dirname(f) for f in g.files}
    dirs |= {posixpath.dirname(d) for d in dirs if "/" in d}
    found: dict[str, str] = {}
    for d in sorted(dirs):
        base = kdir / d
        if not base.is_dir():
            continue
        for p in sorted(base.iterdir()):
            rel = posixpath.join(d, p.name) if d else p.name
            if p.suffix in (".c", ".h") and rel not in g.files and p.is_file():
                code = strip_comments(read_text(p))
                if pat.search(code):
                    found[rel] = code
    return dict(sorted(found.items()))
