# SPDX-License-Identifier: GPL-2.0-only
"""Stages 3 and 4 of make convert: the text rewritten, and what reaches the patch.

    protocol        3 the group's facts for the semantic patches (DETASKLET_*)
    spatch          3 spatch on each file with cocci/*.cocci, in parallel, cached
    fixups          3 what spatch cannot do: macro bodies, leftovers, new fields
    comments        3 the comments that name the tasklet API, rewritten per site (one table)
    classify        4 a group converts fully or not at all; each file's Status
"""
