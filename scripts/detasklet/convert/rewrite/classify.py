# SPDX-License-Identifier: GPL-2.0-only
"""Stage 4, all or nothing: decide, per group of files, what reaches the patch.

A file is converted only if spatch ran, changed it, reported no hazard,
and the rewritten text names no tasklet API identifier (comments aside).
A group converts only if every one of its files does; otherwise every file
of it is reported unconverted, with its own reason or the name of the file
that held it back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...ctext.lex import block_at, function_start, line_of, mask
from ...ctext.tasklet import find_uses
from ...out.files import Status
from ..facts.driver_patches import DriverPatch
from ..facts.groups import Group
from ..facts.legacy import PARAM
from .spatch import Result


@dataclass
class Outcome:
    path: str
    status: Status
    reason: str
    api: list[str]        # the tasklet API identifiers the file names
    old: str
    new: str
    notes: list[str] = field(default_factory=list)   # for the reviewer, when converted
    sites: list[dict] = field(default_factory=list)  # verdicts of its sites (sites.Site.record)
    # converted with patches of its driver's own first (a fix, a prep
    # patch), in order: each one's report.json "driver_prep" record
    # without files and diff, and the file's text after it
    steps: list[tuple[dict, str]] = field(default_factory=list)
    # the text the rules converted, when it is not the file's own (a driver
    # patch, convert.facts.per_vector or convert.facts.normalise rewrote it first)
    base: str = ""
    # the `// Mapping:` rows of the driver patches that rewrote it in place
    # (None: none did; its table is then that of base)
    mapped: list[str] | None = None
    # TARGET=thread (convert.target.thread): the target the file got ("bh" or
    # "thread"), why it stayed on "bh", and the guards of its callbacks
    target: str = "bh"
    target_why: str = ""
    guards: list[dict] = field(default_factory=list)
    # the code spatch could not parse, when there is some (report.json
    # "parse", report.md; not the mails)
    parse: str = ""

    @property
    def user(self) -> bool:
        """Whether the file names the tasklet API: not one that only
        defines a legacy callback, or that only a driver patch changes."""
        return bool(self.api)


_MARKER_RE = re.compile(r"\b__detasklet_\w+")


def leftovers(text: str) -> str:
    """Why the rewritten text is not done: a marker of a chosen replacement
    spatch did not rewrite (convert.verdicts.sites), or tasklet API left."""
    code = mask(text)
    mk = _MARKER_RE.search(code)
    if mk:
        return (f"the replacement chosen for the call at line {line_of(code, mk.start())} "
                "was not written (spatch did not rewrite that code)")
    uses = find_uses(text)
    if not uses:
        return ""
    shown = ", ".join(f"{u.ident} (line {u.line})" for u in uses[:4])
    more = f" and {len(uses) - 4} more" if len(uses) > 4 else ""
    return f"tasklet API left after the rewrite: {shown}{more}"


def hazard(text: str, kind: str, line: int, lock: int) -> str:
    """The reason for a report of cocci/15-report-sync-in-atomic or
    16-report-kill-before-init."""
    what = text.split("\n")[line - 1].strip()
    if kind == "ATOMIC":
        return (f"'{what}' at line {line} can run with the lock of line {lock} held or "
                "interrupts off: the work_struct sync calls may sleep and turn interrupts "
                "back on (an unlock that names the same lock through another pointer is not "
                "recognised)")
    return (f"'{what}' at line {line} can run before this function initialises the tasklet: "
            "cancel_work_sync() of a never-initialised work item WARNs, tasklet_kill() "
            "did not")


def unparsed(text: str, errors: tuple[int, ...]) -> list[int]:
    """The parse-error lines whose top-level definition (from the previous
    '}' in column 0 to the next one) holds tasklet API that is still
    there: those errors are why the file did not convert."""
    rows = text.split("\n")
    ends = [i + 1 for i, ln in enumerate(rows) if ln.startswith("}")]
    uses = [u.line for u in find_uses(text)]
    hit = []
    for n in errors:
        lo = max([e for e in ends if e < n], default=0) + 1
        hi = min([e for e in ends if e >= n], default=len(rows))
        if any(lo <= u <= hi for u in uses):
            hit.append(n)
    return hit


def _spans(spans: tuple[tuple[int, int], ...]) -> str:
    """'line 5', 'lines 14-22', 'lines 3, 14-22'."""
    many = len(spans) > 1 or spans[0][1] > spans[0][0]
    return ("lines " if many else "line ") + ", ".join(
        f"{a}-{b}" if b > a else str(a) for a, b in spans)


def unparsed_uses(text: str, spans: tuple[tuple[int, int], ...],
                  in_function: bool = True) -> list[str]:
    """The tasklet uses of text (what spatch read) inside the line spans it
    could not parse, in a function body (in_function) or outside any.
    In a function, no rule that parsed it rewrote it; outside, it is a
    declaration (a struct's member, as jme.h's), whose type the fixups
    rename as text, which is the same rewrite."""
    code = mask(text)
    starts = [0] + [i + 1 for i, c in enumerate(code) if c == "\n"]
    return [f"{u.ident} at line {u.line}" for u in find_uses(text)
            if any(a <= u.line <= b for a, b in spans)
            and (function_start(code, starts[u.line - 1]) >= 0) == in_function]


def blind(text: str, spans: tuple[tuple[int, int], ...]) -> list[str]:
    """The tasklet uses in function bodies spatch could not parse."""
    return unparsed_uses(text, spans)


def parse_note(text: str, r: Result | None) -> str:
    """report.json's "parse" of a file: the lines spatch could not parse,
    and what tasklet API is there."""
    if r is None or not r.unparsed:
        return ""
    inside, outside = blind(text, r.unparsed), unparsed_uses(text, r.unparsed, False)
    if inside:
        what = f"tasklet API in a function there ({', '.join(inside[:3])}) kept the file " \
               "unconverted"
    elif outside:
        what = (f"the tasklet API there is outside functions ({', '.join(outside[:3])}): "
                "declarations, whose type is renamed as text")
    else:
        what = "no tasklet API is there"
    return f"spatch could not parse {_spans(r.unparsed)}; {what}"


def _new_def(cb: str) -> re.Pattern[str]:
    """The definition of cb as the legacy rules write it."""
    return re.compile(r"\b" + cb + r"\(struct work_struct \*work\)\s*\{")


def stale_param(cb: str, old: dict[str, str], new: dict[str, str]) -> tuple[str, str]:
    """(file, name) when the rewritten body of cb still reads the name of
    its old unsigned long parameter: the rewrite replaced only some uses.
    old and new are masked."""
    old_def = re.compile(r"\b" + cb + r"\s*\(\s*(?:unsigned\s+long\s+|void\s*\*\s*)(\w+)\s*\)\s*\{")
    names = {m.group(1) for code in old.values() for m in old_def.finditer(code)}
    for f, code in new.items():
        for m in _new_def(cb).finditer(code):
            body = block_at(code, m.end() - 1) or code[m.end() - 1:]
            for n in sorted(names - {"work"}):
                if re.search(r"(?<!->)(?<!\.)\b" + n + r"\b", body):   # not x->n
                    return f, n
    return "", ""


def legacy_check(g: Group, new: dict[str, str],
                 old: dict[str, str] | None = None) -> dict[str, str]:
    """A legacy callback whose init became INIT_WORK() must have been
    rewritten wherever it is defined or declared, in every file, and its
    new body must not read the old parameter any more (from_work() form);
    the local-variable form must have its data field declared."""
    bad: dict[str, str] = {}
    codes = {f: mask(t) for f, t in new.items()} if g.legacy or g.legacy_local else {}
    olds = {f: mask(t) for f, t in (old or {}).items()} if g.legacy else {}
    for cb in g.legacy:
        f, name = stale_param(cb, olds, codes)
        if f:
            bad[f] = (f"legacy callback {cb}() reads its argument '{name}' other than as "
                      "the container pointer (only (T *)data casts are rewritten)")
    # callback -> (its old parameter types, what a leftover says)
    forms = {cb: (r"(?:unsigned\s+long\b|void\s*\*)",
                  " (its body does not read the data once, as the container)")
             for cb in g.legacy}
    forms.update({cb: (PARAM + r"\b", "") for cb, c in g.legacy_local.items()
                  if not c.wrapper})
    for cb, c in g.legacy_local.items():
        # The wrapper form: cb keeps its parameter; cb_work() must exist.
        if c.wrapper and any(re.search(r"\bINIT_WORK\([^;]*\b" + c.wrapper + r"\b", t)
                             for t in new.values()) and not any(
                _new_def(c.wrapper).search(t) for t in new.values()):
            bad.setdefault(c.home, f"the work function {c.wrapper}() for {cb}() could "
                           "not be added")
    for cb, (param, more) in forms.items():
        inits = [f for f, t in new.items() if re.search(r"\bINIT_WORK\([^;]*\b" + cb + r"\b", t)]
        if not inits:
            continue
        old_sig = re.compile(r"\b" + cb + r"\s*\(\s*" + param)
        for f, code in codes.items():
            m = old_sig.search(code)
            if m:
                bad[f] = (f"legacy callback {cb}() keeps its old parameter at line "
                          f"{line_of(code, m.start())}{more}")
        if not any(_new_def(cb).search(t) for t in new.values()):
            bad.setdefault(inits[0], f"legacy callback {cb}() is not defined in the files "
                           "of this group")
        lc = g.legacy_local.get(cb)
        if lc and lc.kind == "field" and not any(re.search(
                r"^\s*unsigned long\s+" + lc.field + r"_data;$", t, re.M) for t in new.values()):
            bad.setdefault(inits[0], f"the new field {lc.field}_data for the data of {cb}() "
                           f"could not be declared in {lc.ctype}")
    return bad


def tracked_check(g: Group, new: dict[str, str]) -> dict[str, str]:
    """Each tracked item has its flag declared, cleared first in every
    callback, and set at every place it is queued; file -> why not."""
    bad: dict[str, str] = {}
    codes = {f: mask(t) for f, t in new.items()}
    for item, t in sorted(g.plan.tracked.items()):
        first = next(s.path for s in g.plan.sites if s.item == item)
        if not any(re.search(r"\bunsigned long\s+" + t.flag + r";", c) for c in codes.values()):
            bad.setdefault(first, f"the flag {t.flag} of the tracked enable could not be "
                                  "declared")
        for cb in t.callbacks:
            bodies = [block_at(c, m.end() - 1) or "" for c in codes.values()
                      for m in _new_def(cb).finditer(c)]
            if not any("clear_bit(0, " in b and t.flag in b for b in bodies):
                bad.setdefault(first, f"{cb}() could not be made to clear the flag {t.flag} "
                                      "of the tracked enable first")
        want = sum(s.item == item and s.api in ("tasklet_schedule", "tasklet_hi_schedule")
                   for s in g.plan.sites)
        got = sum(len(re.findall(r"\bset_bit\(0, [^;]*\b" + t.flag + r"\)", c))
                  for c in codes.values())
        if got != want:
            bad.setdefault(first, f"the flag {t.flag} is set at {got} of the {want} places "
                                  f"that queue {item}")
    return bad


def _own(g: Group, f: str, old: str, r: Result | None, pristine: str) -> tuple[Status, str]:
    """A file's own outcome, before the group's; old: the text spatch read
    (after the driver patches and convert.facts.normalise), pristine: the file."""
    if f in g.refusals:
        return Status.UNCONVERTED, g.refusals[f]
    if r is None:
        return Status.FAILED, "not rewritten"
    if r.timed_out:
        # The per-file limit is a decision of the user, not a crash.
        return Status.UNCONVERTED, r.error
    if r.new_text is None:
        return Status.FAILED, r.error
    # a decision may say why a call reached before its function's init
    # only ever runs after an earlier one
    after_init = {x.line for x in g.plan.sites if x.path == f and x.initialised}
    reports = [h for h in r.reports if not (h[0] == "UNINIT" and h[1] in after_init)]
    if reports:
        return Status.UNCONVERTED, hazard(old, *reports[0])
    left = leftovers(r.new_text) or ("no rule matched" if r.new_text == pristine else "")
    skipped = unparsed(r.new_text, r.parse_errors) if left else []
    if skipped:
        # spatch skips what it cannot parse: that is why API is left.
        lines = ", ".join(map(str, skipped[:3]))
        left = f"parse error at line {lines} (spatch skipped that code); {left}"
    if left and "tasklet_init" in left and f in g.legacy_why:
        left = f"{g.legacy_why[f]}; {left}"
    uses = blind(old, r.unparsed)
    if uses and not left:
        # what rewrote it is a textual fallback (convert.rewrite.fixups), not a rule
        left = (f"spatch could not parse {_spans(r.unparsed)}, which holds "
                f"{', '.join(uses[:3])}: no rule that parsed that code rewrote it")
    elif uses and "parse error" not in left:
        left = f"spatch could not parse {_spans(r.unparsed)} (skipped that code); {left}"
    return (Status.UNCONVERTED, left) if left else (Status.CONVERTED, "")


def classify_group(g: Group, old: dict[str, str], res: dict[str, Result],
                   api: dict[str, list[str]]) -> list[Outcome]:
    src = {f: g.source.get(f, old[f]) for f in g.files}     # what spatch read
    own = {f: _own(g, f, src[f], res.get(f), old[f]) for f in g.files}
    rewritten = {f: (res[f].new_text or "") for f in g.files if f in res}
    checks = {**tracked_check(g, rewritten),
              **legacy_check(g, rewritten, {f: src[f] for f in rewritten})}
    for f, why in checks.items():
        if own[f][0] == Status.CONVERTED:
            own[f] = (Status.UNCONVERTED, why)
    bad = [f for f, (st, _) in own.items() if st != Status.CONVERTED]
    out = []
    for f in g.files:
        st, why = own[f]
        if st == Status.CONVERTED and bad:
            st, why = Status.UNCONVERTED, f"shares a tasklet with {bad[0]}, which did not convert"
        new = res[f].new_text if st == Status.CONVERTED else old[f]
        notes = g.notes.get(f, []) if st == Status.CONVERTED else []
        recs = [s.record() for s in g.plan.sites if s.path == f and s.replacement] \
            if st == Status.CONVERTED else []
        o = Outcome(f, st, why, api.get(f, []), old[f], new or old[f], notes, recs,
                    parse=parse_note(src[f], res.get(f)))
        if st == Status.CONVERTED:
            o.base = g.source.get(f, "")
            o.mapped = g.mapped.get(f)
        if st == Status.CONVERTED:
            o.steps = [(step_record(d), texts[f]) for d, texts in g.steps if f in texts]
        out.append(o)
    return out


def step_record(d: DriverPatch) -> dict:
    """What report.json "driver_prep" says of a driver's patch of its own,
    besides its files and diff."""
    rec: dict[str, str | bool] = {"source": d.name, "subject": d.own,
                                  "message": d.why}
    if d.fix:
        rec["fix"] = True
        if d.fixes:
            rec["fixes"] = d.fixes
    return rec
