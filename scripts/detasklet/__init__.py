"""detasklet: convert Linux kernel tasklet users to BH workqueues.

The stages, one module each, in the order a run goes through them:

    tree      check that KDIR is a kernel tree with BH workqueues
    scan      find every file that uses the tasklet API (comments aside)
    facts     group files that share a tasklet, collect cross-file facts
    rewrite   run spatch on each file (in parallel, with a time limit)
    classify  rescan the result: a file or group converts fully or not at all
    series    split the converted files into one patch per driver
    report    write report.json and report.md
"""

__version__ = "0.1.0"
