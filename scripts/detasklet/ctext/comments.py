# SPDX-License-Identifier: GPL-2.0-only
"""The tasklet API named in comments and strings, and reviewed edits of them.

A converted file, or one that never used the API, may still name it in a
comment ("Increment cur_tx before tasklet_schedule()"): once the core is
removed, such a comment names what no longer exists. named() finds every
API identifier (ctext.tasklet.API_IDENTIFIERS) inside a comment or a
string literal; edit() applies (old, new) pairs of comment text written
per site (convert/rewrite/comments.py holds them), each only where old
occurs exactly once and the edit leaves the code as it was. No identifier is ever
substituted blindly: the same name can need different words at different
sites (usbnet's "tasklet_schedule() doesn't" has no true mechanical form).
"""

from __future__ import annotations

from .lex import TOKEN_RE, line_of, mask
from .tasklet import API_RE, MAYBE_RE, Use


def named(text: str) -> list[Use]:
    """Every API identifier inside a comment or a string or character
    literal of text, with its line."""
    if not MAYBE_RE.search(text.encode("utf-8", "surrogateescape")):
        return []
    return [Use(line_of(text, t.start() + m.start()), m.group(1))
            for t in TOKEN_RE.finditer(text) for m in API_RE.finditer(t.group(0))]


def _code(text: str) -> list[str]:
    """The code of text, comments and literals blanked, as its words."""
    return mask(text).split()


def edit(text: str, edits: tuple[tuple[str, str], ...]) -> tuple[str, list[str]]:
    """text with each (old, new) of edits applied where old occurs exactly
    once and the edit changes comments alone (the code, spacing aside, is
    the same after it); and the olds that were not applied (another version
    of the file: the comment is left as it is)."""
    missed = []
    for old, new in edits:
        if text.count(old) != 1:
            missed.append(old)
            continue
        new_text = text.replace(old, new)
        if _code(new_text) != _code(text):
            missed.append(old)
            continue
        text = new_text
    return text, missed
