# SPDX-License-Identifier: GPL-2.0-only
"""Two small readings of the kill analysis (convert.verdicts.analyses):
which function of a name a call reaches, and the words for the callers
of a teardown helper.

A static function of a .c file belongs to that file: a call of its name
in another file is to another function (its own static one, or one of
another module). facts_of() reads one body per name; sees() keeps a call
from going to another file's static function, and shadowed() names the
functions whose sites need their own file read first (sites.plan).
"""

from __future__ import annotations

from ...ctext.lex import function_spans
from ...ctext.teardown import Registration, is_static


def sees(path: str, fn: str, homes: dict[str, str], codes: dict[str, str],
          module: dict[str, str]) -> bool:
    """Whether code of path can call the fn that was read: a static
    function of a .c file belongs to that file, and a call of its name
    elsewhere is another function (liquidio: lio_vf_main.c's own static
    octeon_destroy_resources(), not lio_main.c's)."""
    home = homes.get(fn, "")
    if home == path or not home.endswith(".c"):
        return True
    return not is_static(codes.get(home, "") or module.get(home, ""), fn)


def shadowed(codes: dict[str, str]) -> dict[str, set[str]]:
    """function -> the files of codes that define a function of that name
    other than the one facts_of() reads (the first): a site in such a
    function needs the facts read with its own file first."""
    first: dict[str, str] = {}
    out: dict[str, set[str]] = {}
    for path, code in codes.items():
        for _, _, n in function_spans(code):
            if first.setdefault(n, path) != path:
                out.setdefault(n, set()).add(path)
    return out


def role(h: Registration) -> str:
    """What one caller of a teardown helper is, and when it makes the call,
    in plain words: "registered as .probe of foo_driver (struct
    platform_driver), on its error path, to undo its own set-up when a
    later step fails"; "registered as .remove of ..., when the device is
    unbound"; a caller that is itself a helper says its own callers."""
    if helper(h.how):
        return f"which is {h.how}"
    said = when(h.how, h.kind)
    return f"{h.how}, {said}" if said else h.how


def when(how: str, kind: str) -> str:
    """When a function registered as how (not a helper) runs, for the
    teardown sentence."""
    if kind == "start":
        return "on its error path, to undo its own set-up when a later step fails"
    if kind == "down":
        return "when the interface goes down"
    if "module" in how:
        return "when the module is unloaded"
    if "when the device is unbound" in how:     # a devm action says it itself
        return ""
    return "when the system shuts down" if ".shutdown" in how else "when the device is unbound"


def helper(how: str) -> bool:
    """Whether how is a helper's (analyses.teardown(): its callers say
    what they are) rather than a registration's."""
    return how.startswith("called ")


def count(n: int) -> str:
    return ("two", "three", "four", "five", "six")[n - 2] if 2 <= n <= 6 else str(n)
