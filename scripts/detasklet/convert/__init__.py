# SPDX-License-Identifier: GPL-2.0-only
"""make convert, in the order a run goes (pipeline.py strings them):

    scan        1 every file that uses the tasklet API, comments aside
    groups      2 files that share a tasklet, and each group's facts from
      refusals      internals, atomic callers, side effects: why a file cannot convert
      legacy        tasklet_init() callbacks whose data is the container
      legacy_local  the other legacy callbacks: their data as a local
    protocol    3 the group's facts for the semantic patches (DETASKLET_*)
    rewrite     3 spatch on each file with cocci/*.cocci, in parallel
    fixups      3 what spatch cannot do: macro bodies, leftovers, new fields
    classify    4 a group converts fully or not at all; each file's Status
    write       5 all.patch, groups.json, report.json, report.md into OUT
"""
