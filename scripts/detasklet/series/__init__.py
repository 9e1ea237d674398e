# SPDX-License-Identifier: GPL-2.0-only
"""make series: OUT/all.patch -> OUT/series/, one mail per driver.

    write        load OUT back, and write series/ (the order below)
    drivers      1 the kbuild module of each file, the driver's name
    plan         2 the patches: groups joined by kbuild module, subjects
      trees          the maintainer tree of a patch (trees.toml)
      hotpaths       the hot paths a cover letter quotes bench figures for (hotpaths.toml)
    prefix         the subject prefix of a driver: git history or a table
    maintainers  3 MAINTAINERS sections; To/Cc from get_maintainer.pl
    message      4 the commit message of a patch
      initnote       its note on the callbacks tasklet_init() registered
    letter       4 the cover letter's text
      evidence       what a mail may say was measured: compile-test, make runtime
    identity       From:, Date:, base: never the clock
    mbox         5 what each mail says, the cover letter
    gitmail      6 scratch commits, git format-patch writes the mails
    branches       make branches: a branch per series in KDIR's repository
    module         M=: the one patch of an external module, to its own maintainer
"""
