# SPDX-License-Identifier: GPL-2.0-only
"""Stage 5 of make convert: the patches and the reports, into OUT.

    write           all.patch, groups.json, report.json, report.md
      rules_got       report.json "rules": each mapping row as a file got it
    tasklet_free    the patch that removes the tasklet core, once no user is
                    left (OUT/series/ last; also detasklet tasklet-free)
      tasklet_free_text  its words: the comments and Documentation/ that name tasklets
"""
