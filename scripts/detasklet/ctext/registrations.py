# SPDX-License-Identifier: GPL-2.0-only
"""Callbacks that run in atomic context, by how a file registers them.

A registration call names its callback at a fixed argument; the arguments
are split at the commas outside any parentheses, brackets or braces, so
request_irq(pci_irq_vector(pdev, 0), isr, ...) gives isr, as
request_irq(irq, isr, ...) does. The callback argument is a function name,
possibly as &name or behind a cast (both names of cond ? a : b). An
operation slot or a timer's
.function is an assignment of a name.
"""

from __future__ import annotations

import re
from typing import Iterator

from .lex import call_args, line_of

# In the order the reasons are looked for: (a call, the callback's
# argument index from 0, what runs it), or (an assignment whose group 1 is
# the function, None, what runs it).
ENTRIES: list[tuple[str, int | None, str]] = [
    (r"\.ndo_tx_timeout\s*=\s*(\w+)", None, "ndo_tx_timeout, with the tx lock held"),
    ("timer_setup", 1, "a timer callback, in softirq"),
    ("request_irq|request_threaded_irq", 1, "an interrupt handler, in hardirq"),
    ("devm_request_irq", 2, "an interrupt handler, in hardirq"),
    ("tasklet_setup|tasklet_init", 1, "a tasklet callback, in softirq"),
    (r"DECLARE_TASKLET\w*", 1, "a tasklet callback, in softirq"),
    # timer_list and hrtimer callbacks set by hand, DEFINE_TIMER, hrtimer_setup (6.13)
    (r"(?:\.|->)function\s*=\s*(\w+)\s*;", None, "a timer callback (.function), in softirq "
     "or hardirq"),
    ("DEFINE_TIMER", 1, "a timer callback, in softirq"),
    ("hrtimer_setup", 1, "an hrtimer callback, in hardirq"),
    ("devm_request_threaded_irq", 2, "an interrupt handler, in hardirq"),
    ("request_any_context_irq|request_percpu_irq", 1, "an interrupt handler, in hardirq"),
    (r"\.ndo_start_xmit\s*=\s*(\w+)", None, "ndo_start_xmit, with bottom halves off"),
    (r"netif_napi_add\w*", 2, "a NAPI poll, in softirq"),
    ("call_rcu|call_rcu_hurry", 1, "an RCU callback, in softirq"),
    ("init_irq_work", 1, "an irq_work callback, in hardirq"),
]
_RES = [(re.compile(p if n is None else r"\b(?:" + p + r")\s*\("), n, what)
        for p, n, what in ENTRIES]
_NAME_RE = re.compile(r"(?:\(\s*[\w\s*]+\)\s*)*&?\s*(\w+)")


def callback_name(arg: str) -> str:
    """The function an argument names (isr, &isr, (irq_handler_t)isr), or ""."""
    m = _NAME_RE.fullmatch(arg.strip())
    return m.group(1) if m else ""


def atomic(code: str) -> Iterator[tuple[str, str, int]]:
    """(function, what runs it, line) of each registration of masked code,
    entry by entry (ENTRIES' order)."""
    for pat, n, what in _RES:
        for m in pat.finditer(code):
            if n is None:
                yield m.group(1), what, line_of(code, m.start())
                continue
            args = call_args(code, m.end())
            arg = args[n] if len(args) > n else ""
            # cond ? a : b registers either
            alts = re.fullmatch(r"[^?]+\?([^:]+):(.+)", arg)
            for a in alts.groups() if alts else (arg,):
                name = callback_name(a)
                if name:
                    yield name, what, line_of(code, m.start())
