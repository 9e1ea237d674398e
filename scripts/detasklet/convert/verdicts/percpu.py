# SPDX-License-Identifier: GPL-2.0-only
"""The CPU of a per-CPU item, for the re-queue of its enable.

A tasklet scheduled while disabled stays on the list of the CPU that
scheduled it and runs there once enabled; a per-CPU item is scheduled by
its own CPU (this_cpu_ptr()), so it ran on that CPU. The tracked enable
re-queues with queue_work(), on the CPU that calls the enable: for an
item of per-CPU data disabled and enabled from another CPU (taken with
per_cpu_ptr(..., CPU) for a fixed CPU), that is another CPU than the
tasklet's. queue_work_on(CPU, ...) is the equivalent.

An item is per-CPU when the struct that holds it is per-CPU data of the
group (DEFINE_PER_CPU*(struct T, ...), alloc_percpu*(struct T), or a
`struct T __percpu *`). For each enable of such an item, cpu_of() reads
which CPU the item belongs to: from the argument itself
(&per_cpu_ptr(P, CPU)->item, &per_cpu(V, CPU).item), or from the one
assignment of the pointer it names in the function (p = per_cpu_ptr(P,
CPU)); this_cpu_ptr() and smp_processor_id() are the calling CPU. The CPU
expression must hold at the enable: a constant, or a name not assigned
between the pointer's assignment and the enable.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...ctext.lex import function_spans, line_start, paren_end

if TYPE_CHECKING:
    from .sites import Site

_PERCPU_DECL = (r"\bDEFINE_PER_CPU\w*\s*\(\s*struct\s+(\w+)\s*,|"
                r"\balloc_percpu\w*\s*\(\s*struct\s+(\w+)\b|"
                r"\bstruct\s+(\w+)\s+__percpu\s*\*")
_PERCPU_RE = re.compile(_PERCPU_DECL)


@dataclass(frozen=True)
class ItemCpu:
    cpu: str         # the CPU expression; "" for the calling CPU
    how: str         # how it was read, for the verdict's why


def percpu_types(codes: dict[str, str]) -> set[str]:
    """The structs of the group that are per-CPU data."""
    return {next(g for g in m.groups() if g) for c in codes.values()
            for m in _PERCPU_RE.finditer(c)}


def _accessor(text: str) -> tuple[str, str] | None:
    """(kind, CPU) of text that starts a per-CPU access: per_cpu_ptr(P,
    CPU), per_cpu(V, CPU), this_cpu_ptr(P); None for anything else."""
    m = re.match(r"\s*&?\s*\(?\s*(per_cpu_ptr|per_cpu|this_cpu_ptr|raw_cpu_ptr)\s*\(", text)
    if not m:
        return None
    end = paren_end(text, m.end())
    inner = text[m.end():end - 1]
    if m.group(1) in ("this_cpu_ptr", "raw_cpu_ptr"):
        return "this", ""
    depth, cut = 0, -1
    for i, ch in enumerate(inner):
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            cut = i
    return ("cpu", inner[cut + 1:].strip()) if cut >= 0 else None


def _holds(cpu: str, between: str) -> bool:
    """Whether CPU keeps its value over the code between (a constant, or
    a name nothing assigns there)."""
    if re.fullmatch(r"\d+|[A-Z][A-Z0-9_]*", cpu):
        return True
    if not re.fullmatch(r"[A-Za-z_]\w*(?:(?:->|\.)\w+)*", cpu):
        return False
    name = re.escape(cpu)
    return not re.search(r"(?<![\w>.])" + name + r"\s*(?:[-+*/|&^]?=(?!=)|\+\+|--)|"
                         r"(?:\+\+|--)\s*" + name + r"\b|"
                         r"\bfor_each_\w*cpu\w*\s*\(\s*" + name + r"\b", between)


def _local(cpu: str) -> bool:
    return cpu in ("smp_processor_id()", "raw_smp_processor_id()", "get_cpu()")


def cpu_of(expr: str, body: str, pos: int) -> tuple[ItemCpu | None, str]:
    """The CPU of the item expr names at offset pos of the function body,
    or why it cannot be told."""
    m = re.fullmatch(r"&\s*(.+?)\s*(?:->|\.)\s*\w+", re.sub(r"\s+", " ", expr.strip()))
    if not m:
        return None, f"{expr} does not name the item as a member"
    base = m.group(1)
    got = _accessor(base)
    where = expr
    if got is None and re.fullmatch(r"\w+", base):
        sets = list(re.finditer(r"(?<![\w>.])" + base + r"\s*=(?!=)\s*", body[:pos]))
        every = len(re.findall(r"(?<![\w>.])" + base + r"\s*=(?!=)", body))
        if not every:
            return None, f"{base} comes from outside the function"
        if len(sets) != 1 or every != 1:
            return None, f"{base} is assigned more than once in the function"
        got = _accessor(body[sets[0].end():])
        where = f"{base} = {body[sets[0].end():].split(';')[0].strip()}"
        start = sets[0].end()
    else:
        start = pos
    if got is None:
        return None, (f"{base} is not taken with per_cpu_ptr(), per_cpu() or this_cpu_ptr() "
                      "in the function")
    kind, cpu = got
    if kind == "this" or _local(cpu):
        return ItemCpu("", f"{where}: the calling CPU's own item"), ""
    if not _holds(cpu, body[start:pos]):
        return None, f"the CPU {cpu} of {where} may change before the enable"
    return ItemCpu(cpu, f"{where}: the item of CPU {cpu}"), ""


def _site_pos(code: str, line: int, api: str) -> int:
    start = line_start(code, line)
    m = re.compile(r"\b" + api + r"\s*\(").search(code, start)
    return m.start() if m else start


def place(site: "Site", codes: dict[str, str], ctype: str) -> str:
    """For the tracked enable site of an item of struct ctype: its CPU set
    on the site when the item is per-CPU data; why it cannot be told
    otherwise ("" when it is not per-CPU or the CPU is known)."""
    tag = ctype.removeprefix("struct ").strip()
    if not tag or tag not in percpu_types(codes):
        return ""
    code = codes[site.path]
    pos = _site_pos(code, site.line, site.api)
    span = next(((a, b) for a, b, _ in function_spans(code) if a <= pos < b), None)
    if span is None:
        return ""
    got, why = cpu_of(site.expr, code[span[0]:span[1]], pos - span[0])
    if got is None:
        return (f"{site.item} is a member of per-CPU data ({ctype}): the tasklet ran on the "
                "CPU whose item it is, so the re-queue of the enable must go there with "
                f"queue_work_on(), but that CPU cannot be told: {why}; a decision with "
                "cpu = \"...\" says which")
    site.analysis = "per-cpu"
    if got.cpu:
        site.cpu = got.cpu
        site.why += (f"; {site.item} is per-CPU data ({got.how}), so the re-queue goes to "
                     f"CPU {got.cpu} with queue_work_on(), where the tasklet ran")
    else:
        site.why += (f"; {site.item} is per-CPU data ({got.how}), so queue_work() on the "
                     "calling CPU is the item's own, where the tasklet ran")
    return ""
