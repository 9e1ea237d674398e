# SPDX-License-Identifier: GPL-2.0-only
"""Per-subsystem policies (policies.toml): the workqueues a subsystem's
converted drivers queue on, and the patch that adds them.

A policy covers the files under its paths. In those files' new text, the
system BH workqueues the rewrite chose become the subsystem's (queues),
and a file that does not reach the policy's header through its includes
gets an #include of it. The prep patch (edits: insertions at anchors of
the pristine files) adds the subsystem's workqueues; it is written into
all.patch beside the drivers and is the first patch of the subsystem's
series (series.plan). A policy whose anchors a tree does not have exactly
once is not usable on that tree: its drivers keep the default queues.
"""

from __future__ import annotations

import logging
import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ...ctext import workqueue
from ...ctext.includes import Resolver
from ...ctext.lex import mask, sub_code
from ...errors import InputError

log = logging.getLogger("detasklet")

FILE = Path(__file__).resolve().parents[4] / "policies.toml"
_KEYS = {"paths", "header", "why", "subject", "message", "queues", "edits"}
_TARGET_KEYS = {"paths", "target", "why"}


@dataclass(frozen=True)
class Edit:
    file: str
    anchor: str
    after: bool          # insert after the anchor (else before it)
    text: str


@dataclass(frozen=True)
class Policy:
    name: str
    paths: tuple[str, ...]
    header: str
    queues: tuple[tuple[str, str], ...]    # (system workqueue, the subsystem's)
    subject: str
    message: str
    why: str
    edits: tuple[Edit, ...]

    def covers(self, rel: str) -> bool:
        return rel.startswith(self.paths)


def _read(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise InputError(f"{path}: {e}") from None


def load(path: Path = FILE) -> list[Policy]:
    """The policies of policies.toml, checked."""
    data = _read(path)
    out = []
    for name, d in sorted(data.items()):
        if "target" in d:
            continue                # a target choice (targets())
        bad = set(d) - _KEYS or _KEYS - set(d)
        if bad:
            raise InputError(f"{path} [{name}]: keys {sorted(bad)} missing or unknown")
        edits = []
        for e in d["edits"]:
            if set(e) not in ({"file", "after", "text"}, {"file", "before", "text"}):
                raise InputError(f"{path} [{name}] edit: needs file, text and one of "
                                 "after/before")
            edits.append(Edit(e["file"], e.get("after", e.get("before", "")), "after" in e,
                              e["text"]))
        out.append(Policy(name, tuple(d["paths"]), d["header"], tuple(sorted(d["queues"].items())),
                          d["subject"], d["message"], d["why"], tuple(edits)))
    return out


@dataclass(frozen=True)
class TargetChoice:
    """A subsystem's or driver's own target: its groups convert to it
    whatever TARGET the run has, for the reason why."""
    name: str
    paths: tuple[str, ...]
    target: str
    why: str

    def covers(self, rel: str) -> bool:
        return rel.startswith(self.paths)


def targets(path: Path = FILE) -> list[TargetChoice]:
    """The target choices of policies.toml (entries with a target key:
    paths, target "bh" or "thread", why), checked."""
    data = _read(path)
    out = []
    for name, d in sorted(data.items()):
        if "target" not in d:
            continue
        if set(d) != _TARGET_KEYS or d["target"] not in ("bh", "thread"):
            raise InputError(f"{path} [{name}]: a target choice has exactly the keys "
                             f"{sorted(_TARGET_KEYS)}, and target is bh or thread")
        out.append(TargetChoice(name, tuple(d["paths"]), d["target"], d["why"]))
    return out


def target_for(choices: list[TargetChoice], files: list[str], default: str
               ) -> tuple[str, str]:
    """(target, why) of a group: that of the choice that covers every file
    of it outside include/ (a driver's header there is still the driver's:
    include/linux/usb/cdc_ncm.h goes with drivers/net/usb/cdc_ncm.c); of
    several, the one whose paths name them most closely (a driver's own
    choice over its subsystem's); else the run's default ("" why)."""
    own = [f for f in files if not f.startswith("include/")] or files

    def near(c: TargetChoice) -> int:
        return min(max(len(p) for p in c.paths if f.startswith(p)) for f in own)
    cover = [c for c in choices if own and all(c.covers(f) for f in own)]
    c = max(cover, key=near, default=None)
    return (c.target, " ".join(c.why.split())) if c else (default, "")


def prep_texts(kdir: Path, pol: Policy) -> dict[str, str] | str:
    """The new text of each file of pol's prep patch on kdir, or why the
    policy cannot be used on that tree."""
    # {percpu}: only where a BH workqueue accepts the flag (6.12 defines
    # WQ_PERCPU, but alloc_workqueue() refuses it with WQ_BH there).
    percpu = " | WQ_PERCPU" if "WQ_PERCPU" in workqueue.bh_allows(workqueue.text_of(kdir)) \
        else ""
    if not (kdir / pol.header).is_file():
        # the converted files would #include a file that is not there
        return f"its header {pol.header} is not in this tree"
    texts: dict[str, str] = {}
    for e in pol.edits:
        if e.file not in texts:
            try:
                texts[e.file] = (kdir / e.file).read_text()
            except (OSError, UnicodeDecodeError):
                return f"{e.file} cannot be read"
        t = texts[e.file]
        n = t.count(e.anchor)
        if n != 1:
            first = e.anchor.strip().splitlines()[0] if e.anchor.strip() else "(empty)"
            return f"{e.file} has {n} copies of the anchor {first!r}, not one"
        i = t.index(e.anchor) + (len(e.anchor) if e.after else 0)
        texts[e.file] = t[:i] + e.text.replace("{percpu}", percpu) + t[i:]
    return texts


def usable(kdir: Path, policies: list[Policy]) -> list[Policy]:
    """The policies whose prep patch can be made on kdir; a warning for
    each other one."""
    out = []
    for pol in policies:
        got = prep_texts(kdir, pol)
        if isinstance(got, str):
            log.warning(f"policy {pol.name}: not used on this tree ({got}); its drivers "
                        "queue on the system BH workqueues")
        else:
            out.append(pol)
    return out


def _names_any(text: str, names: list[str]) -> bool:
    """text's code names one of names."""
    code = mask(text)
    return any(re.search(r"\b" + n + r"\b", code) for n in names)


def names_system_queue(pol: Policy, text: str) -> bool:
    return _names_any(text, [s for s, _ in pol.queues])


def names_queue(pol: Policy, text: str) -> bool:
    """text's code names one of the policy's workqueues."""
    return _names_any(text, [o for _, o in pol.queues])


def for_group(policies: list[Policy], files: list[str], old: dict[str, str]) -> Policy | None:
    """The policy of a group of files that share work items: one that
    covers every file, none of which already names a system BH workqueue.
    A work item is non-reentrant only within one workqueue, so the files
    of a group queue on the same ones or the group keeps the default."""
    pol = next((p for p in policies if files and all(p.covers(f) for f in files)), None)
    if pol is None or any(names_system_queue(pol, old[f]) for f in files):
        return None
    return pol


def _reaches(res: Resolver, rel: str, header: str) -> bool:
    seen, todo = {rel}, [rel]
    while todo:
        for inc in res.of(todo.pop()):
            if inc == header:
                return True
            if inc not in seen:
                seen.add(inc)
                todo.append(inc)
    return False


_INCLUDE_LINE_RE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"][^>"\n]+[>"][^\n]*\n', re.M)


def apply(res: Resolver, pol: Policy, rel: str, old: str, new: str) -> str:
    """new (the rewrite of rel) with the subsystem's workqueues for the
    system ones; the policy's header included when rel does not reach it.
    A file whose old code already named a system workqueue keeps it all
    (for_group() keeps its whole group so): renaming lines the conversion
    did not write is not this patch's job."""
    code_new = mask(new)
    names = [(s, o) for s, o in pol.queues if re.search(r"\b" + s + r"\b", code_new)]
    if not names or names_system_queue(pol, old):
        return new
    for s, o in names:
        new = sub_code(re.compile(r"\b" + s + r"\b"), o, new)
    if rel == pol.header or _reaches(res, rel, pol.header):
        return new
    inc = os.path.relpath(pol.header, os.path.dirname(rel))
    last = None
    for m in _INCLUDE_LINE_RE.finditer(mask(new)):
        last = m
    line = f'#include "{inc}"\n'
    if last is None:
        return line + new
    return new[:last.end()] + line + new[last.end():]


@dataclass(frozen=True)
class Prep:
    policy: Policy
    old: dict[str, str]      # path -> pristine text
    new: dict[str, str]      # path -> text with the edits

    def record(self) -> dict:
        """report.json "prep" entry."""
        return {"policy": self.policy.name, "files": sorted(self.new),
                "paths": list(self.policy.paths),
                "subject": self.policy.subject, "message": self.policy.message,
                "queues": dict(self.policy.queues)}


def preps(kdir: Path, policies: list[Policy], converted: dict[str, str]) -> list[Prep]:
    """The prep patches the converted files (path -> new text) need: one
    for each policy that some of them queue on (apply() renamed their
    queues only where the policy was usable)."""
    out = []
    for pol in policies:
        if not any(pol.covers(p) and names_queue(pol, t) for p, t in converted.items()):
            continue
        texts = prep_texts(kdir, pol)
        if isinstance(texts, str):
            continue
        both = sorted(set(texts) & set(converted))
        if both:
            raise InputError(f"policy {pol.name}: its prep patch changes {both[0]}, which "
                             "is converted too; the two changes cannot be told apart")
        out.append(Prep(pol, {f: (kdir / f).read_text() for f in texts}, texts))
    return out
