# SPDX-License-Identifier: GPL-2.0-only
"""C, Kbuild and diffs as text: the only code that reads them without spatch.

    lex       comments and literals masked, lines, blocks, top-level items
    tasklet   the tasklet API as named patterns: identifiers, declarations, item keys
    initcb    the callbacks tasklet_init() calls register, their casts and parameter types
    decls     the struct an object of a function is declared as (two members of one name)
    workqueue the workqueue API a tree declares: the flags a BH workqueue accepts
    sources   which files of a tree are C sources, and how they are read
    includes  the one #include resolver, and the graph of includers
    kbuild    the one Kbuild reader: modules of a folder, objects a .config builds
    preproc   whether the lines a conversion changed reached the compiler (make x.i)
    blockio   the calls that show a driver completes block I/O, and a module's files
    registrations  the callbacks a file registers to run in atomic context
    teardown  how a driver registers its functions; the calls that complete awaited work
    pointers  calls through a function pointer, and the functions a name is set to
    ptrtypes  the struct of the object whose pointer member is called or set
    layout    whitespace of changed lines, as checkpatch wants it
    gitdiff   diffs in git form: made, read back, applied, counted
    workcb    the work callbacks a conversion's patch defines (make runtime profiles them)
    threadbar what the TARGET=thread bar check reads: a patch's process-context queues,
              a folder's block-layer calls (broader than blockio)
"""
