# SPDX-License-Identifier: GPL-2.0-only
"""detasklet: convert Linux kernel tasklet users to BH workqueues.

The folders are the flow, KDIR -> convert/ -> OUT/all.patch -> series/ ->
OUT/series/ -> check/:

    convert/   scan, group, rewrite with spatch, classify, write OUT
    series/    one mail per driver, and the cover letter
    check/     the evidence: send-check, compile-test, coverage,
               tasklet-free, leftovers
    ctext/     C, Kbuild and diffs as text: one lexer, one vocabulary of the
               tasklet API, one #include resolver, one Kbuild reader
    out/       OUT: where it may be, how it is written, its files read back
    mapping.py the tasklet -> workqueue table; kdir.py the tree checks;
    errors.py  the one error hierarchy; __main__.py the command line
"""

__version__ = "0.1.0"
