# SPDX-License-Identifier: GPL-2.0-only
"""The other files of a group's kbuild modules, for the kill analysis.

A group is the files that name its tasklets; the run of a tasklet may go
on into a function of another file of the same module (octeontx's
vq_work_handler() calls otx_cpt_post_process() of otx_cptvf_reqmgr.c,
which completes the crypto requests). What that run does is part of the
proof of a kill (convert.verdicts.analyses), so the analyses read the
module's other .c files too: those its kbuild file links into the same
composite object as a .c file of the group (ctext.kbuild.module_files).
They are read, never rewritten, and give the analyses only the functions
the group reaches (analyses.facts_of).
"""

from __future__ import annotations

from pathlib import Path

from ...ctext import kbuild
from ...ctext.lex import mask
from ...ctext.sources import read_text


def files(kdir: Path, group: list[str], mods: dict[str, dict[str, str]]) -> list[str]:
    """The .c files of the kbuild modules of group's .c files that are not
    in group, sorted. mods: a cache of ctext.kbuild.modules() by folder."""
    mine = set(group)
    return sorted({o for f in group for o in kbuild.module_files(kdir, f, mods)} - mine)


def keys(kdir: Path, paths: list[str], mods: dict[str, dict[str, str]]) -> dict[str, str]:
    """Each .c file of paths that a kbuild file names -> 'folder:module' of
    its module (ctext.kbuild.module_key): the files of one key are one
    driver, whose functions work on the same instances of a shared struct."""
    return {p: k for p in paths if (k := kbuild.module_key(kdir, p, mods))}


def codes(kdir: Path, paths: list[str]) -> dict[str, str]:
    """path -> masked text of each of paths that can be read."""
    out = {}
    for p in paths:
        try:
            out[p] = mask(read_text(kdir / p))
        except OSError:
            continue
    return out
