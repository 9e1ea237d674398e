# SPDX-License-Identifier: GPL-2.0-only
"""detasklet: convert Linux kernel tasklet users to BH workqueues.

The folders are the flow, KDIR -> convert/ -> OUT/all.patch -> series/ ->
OUT/series/ -> check/:

    convert/   facts, verdicts, rewrite (spatch), target, output: KDIR to OUT
    series/    one mail per driver, and the cover letter
    check/     the evidence: send-check, compile-test, coverage, leftovers,
               runtime, bench
    ctext/     C, Kbuild and diffs as text: one lexer, one vocabulary of the
               tasklet API, one #include resolver, one Kbuild reader
    out/       OUT: where it may be, how it is written, its files read back
    mapping.py the tasklet -> workqueue table; kdir.py the tree checks;
    progress.py on a terminal, a line while a stage prints nothing;
    module.py  M=: an external module, its maintainer and its decisions;
    errors.py  the one error hierarchy; __main__.py the command line (cli.py
               its parser and logger);
    proc.py    every external program, and the tool's version; scratch.py
               a run's scratch folders
"""

from __future__ import annotations

__version__ = "0.1.0"

