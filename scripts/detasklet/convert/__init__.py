# SPDX-License-Identifier: GPL-2.0-only
"""make convert, in the order a run goes (pipeline.py strings them). Every
module of this folder is here, under the stage it serves:

    scan          1 every file that uses the tasklet API, comments aside
    groups        2 files that share a tasklet, and each group's facts:
      driver_patches  a driver's own rule or patch (cocci/drivers/), applied first
      normalise       member uses that have a one-for-one form, written in it
      per_vector      per-vector tasklets beside the array that is their data
      refusals        internals, atomic callers, side effects: why a file cannot convert
      legacy          tasklet_init() callbacks whose data is the container
      legacy_local    the other legacy callbacks: their data as a local
    sites         2 a verdict for each call that is not the same operation:
      analyses        the named analyses that prove a site exact
      balance         an enable some path of its function reaches without the disable
      percpu          the CPU of a per-CPU item, for its enable's re-queue
      decisions       decisions/*.toml, a person's verdict for the others
      policy          policies.toml: a subsystem's own workqueues and target
    protocol      3 the group's facts for the semantic patches (DETASKLET_*)
    rewrite       3 spatch on each file with cocci/*.cocci, in parallel
    fixups        3 what spatch cannot do: macro bodies, leftovers, new fields
    classify      4 a group converts fully or not at all; each file's Status
    thread        4 TARGET=thread: the converted work moved to process context
      reclaim         a driver that completes block I/O stays on BH (WQ_MEM_RECLAIM)
    write         5 all.patch, groups.json, report.json, report.md into OUT
      rules_got       report.json "rules": each mapping row as a file got it
"""
