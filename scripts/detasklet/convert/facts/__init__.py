# SPDX-License-Identifier: GPL-2.0-only
"""Stages 1 and 2 of make convert: what the tree says, before spatch.

    scan            1 every file that uses the tasklet API, comments aside
    groups          2 files that share a tasklet, and each group's facts
                      (groups.examine(), in this order):
      driver_patches  a driver's own rule or patch (cocci/drivers/), applied first
      per_vector      per-vector tasklets beside the array that is their data
      normalise       member uses that have a one-for-one form, written in it
      refusals        internals, atomic callers, side effects: why a file cannot convert
      legacy          tasklet_init() callbacks whose data is the container
      legacy_local    the other legacy callbacks: their data as a local
        legacy_data     where that data comes from, and how the body reads it
        legacy_path     data the setup publishes through a path from the container
      module_reach    the other .c files of a group's kbuild modules, for the kill analysis
      unused          tasklet members no code names: removed, not converted
"""
