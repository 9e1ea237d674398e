/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Parsing hints for spatch (--macro-file, on top of its standard.h).
 *
 * Coccinelle 1.1.1 knows nothing of <linux/cleanup.h>. A scoped_guard()
 * whose body has no braces ("scoped_guard(mutex, &m) rc = f();", as in
 * megaraid_sas_base.c) is a parse error, and spatch then skips the whole
 * function, tasklet calls included. Declared as iterators, they parse like
 * list_for_each_entry(): a header, then one statement or a block, which is
 * what they are (a for loop run once). cocci/15-report-sync-in-atomic.cocci
 * matches them by that name, with "iterator name scoped_guard;".
 * guard(lock)(&x); needs no hint: it parses as a call.
 *
 * make convert passes this file with --macro-file. A rule run alone by the
 * kernel's make coccicheck gets it with
 * SPFLAGS="--macro-file <this repository>/cocci/parsing-hints.h": a path in
 * the rules' // Options: line would not resolve from the object tree.
 */
#define scoped_guard(_name, args...) YACFE_ITERATOR
#define scoped_cond_guard(_name, _fail, args...) YACFE_ITERATOR

/*
 * Linux 7.x context analysis (include/linux/compiler-context-analysis.h):
 * an attribute macro between a function's parameter list and its body
 * ("static void f(void *arg)\n__context_unsafe(...)\n{") is a parse error
 * in spatch 1.1.1, which then skips the function (ctcm_fsms.c in 7.3).
 * They only inform the compiler's lock analysis: empty here.
 */
#define __context_unsafe(comment)
#define __no_context_analysis
