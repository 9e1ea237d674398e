# SPDX-License-Identifier: GPL-2.0-only
"""The evidence that OUT is right, one command each; none writes into KDIR.

    send          send-check: each patch of series/ applies (git am, on the
                  earlier patches of its series that touch its files) and
                  passes checkpatch --strict; the series is all.patch
    compile_test  compile-test: every converted file builds (allmodconfig),
                  pristine and converted, per arch
      arches        the architectures and their cross compilers
      worktree      KDIR hard-linked, all.patch applied, KDIR untouched
      make          allmodconfig and make -k in a build folder
      module_build  M=: the external module built with make -C <build> M=, both ways
      reached       which changed lines of the converted files the compiler saw
    coverage      coverage: how many tasklet files some allmodconfig builds
    leftovers     leftovers: the tasklet API left in a patched tree or build
    bench         bench: tasklet against BH work, the figures read from the guests' logs
      bench_plot    the latency plot of bench.json
    thread_bar    the TARGET=thread bar from OUT's report.json and all.patch
                  (tests/thread_bar.py)
    runtime       runtime: pristine and converted kernel booted in QEMU, workloads
                  compared (its own map in runtime/__init__.py)
(make kunit and make tasklet-free run scripts/kunit.sh and
scripts/tasklet-free.sh: KUnit suites on UML.)
"""
