# SPDX-License-Identifier: GPL-2.0-only
"""OUT: the one folder detasklet writes, and never anything else.

    place     where OUT may be: refused before any work when writing it could
              touch what the tool did not write
    staging   the lock, the scratch folder swapped in whole, files by rename
    files     report.json, groups.json and all.patch read back and checked;
              the Status of a file; a section of report.md
      builds    a file's compile-test record, as one type (Build)
    summary   make report: the figures of an OUT
    origin    run.json: this run's timings and cache counts apart from the
              result, and the KDIR OUT was made from (used when none is given)
"""
