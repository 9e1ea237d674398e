// SPDX-License-Identifier: GPL-2.0-only
/// A tasklet_kill() or tasklet_disable*() that a path of a function reaches
/// before that function initialises the tasklet: cancel_work_sync() of a
/// work item that was never initialised WARNs, tasklet_kill() did not.
// Confidence: Moderate
// Comments: Reports only (an error unwind that jumps over the init).
//  tasklet_kill() of a zeroed tasklet does nothing; __flush_work() has
//  WARN_ON(!work->func). Only within one function: a kill in remove() of a
//  tasklet that probe() initialises on some paths is not seen; a kill
//  behind a condition that implies the init (bnxt_re's need_init) is
//  reported too. A kill the driver renamed to the marker of its chosen
//  replacement (__detasklet_kill_*, make convert) is a kill.
// Options: --no-includes --include-headers

virtual report

// Functions that initialise a tasklet E somewhere.
@init_fn depends on report exists@
identifier fn;
expression E;
@@
fn(...) {
... when any
\(tasklet_setup(E, ...)\|tasklet_init(E, ...)\)
... when any
}

// A path from the entry of such a function to a kill/disable of E that
// does not go through the init.
@kill_before_init depends on report exists@
identifier init_fn.fn;
identifier sync =~ "^(tasklet_(kill|disable|disable_nosync|unlock_wait)|__detasklet_kill_(cancel|flush|flush_cancel))$";
expression init_fn.E;
position p;
@@
fn(...) {
... when != tasklet_setup(E, ...)
    when != tasklet_init(E, ...)
sync@p(E)
... when any
}

@script:python depends on report@
p << kill_before_init.p;
@@
coccilib.report.print_report(p[0], "kill or disable before its init in this function: "
                             "cancel_work_sync() of a never-initialised work item WARNs")
