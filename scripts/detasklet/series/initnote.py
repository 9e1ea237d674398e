# SPDX-License-Identifier: GPL-2.0-only
"""The commit message's note on the callbacks that tasklet_init()
registered (series/message.py): what their parameter was and what it
becomes, as the patch's removed lines show each one. A callback that took
an unsigned long gets the mapping's words; one that took another type
and reached tasklet_init() through a cast (ibmvscsi_task(void *), passed
as (void *)ibmvscsi_task) was called through a function type that was not
its own, and the note says that the conversion ends that.
Pure: text in, text out."""

from __future__ import annotations

from ..ctext.initcb import InitCallback, init_callbacks

_ULONG = {"unsigned long", "ulong", "u_long", "unsigned long int", "long unsigned int"}


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _plain(cbs: list[InitCallback], from_work: bool) -> str:
    one = len(cbs) == 1
    text = ("The callback registered with tasklet_init() took an unsigned long and now "
            "takes the struct work_struct pointer" if one else
            "Callbacks that were registered with tasklet_init() and took an unsigned long "
            "now take the struct work_struct pointer")
    if not from_work:
        return text + "."
    return text + ("; where the data passed was the object that contains the work item, "
                   f"{'it finds' if one else 'they find'} it with from_work().")


def _cast(c: InitCallback, from_work: bool) -> str:
    return (f"{c.name}() took a {c.param} and was passed to tasklet_init() through a "
            f"{c.cast} cast, so the tasklet core called it through a function type that "
            "was not its own (one taking an unsigned long), a call that kernel CFI "
            "checking rejects. It now takes the struct work_struct pointer, INIT_WORK() "
            "gets it without a cast"
            + (", and it finds the object that contains the work item with from_work()."
               if from_work else "."))


def init_notes(removed: str, added: str) -> list[str]:
    """The notes on the tasklet_init() callbacks of a patch: removed, its
    removed lines (masked); added, its added lines. No note for callbacks
    whose data did not become a from_work() (their own note says what it
    became) unless a cast goes."""
    cbs = init_callbacks(removed)
    from_work = "from_work(" in added
    odd = [c for c in cbs if c.cast and c.param and c.param not in _ULONG]
    plain = [c for c in cbs if c not in odd]
    out = [_cast(c, from_work) for c in odd]
    if (plain or not cbs) and from_work:
        out.insert(0, _plain(plain or cbs, from_work))
    return out
