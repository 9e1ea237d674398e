/// Report, do not rewrite: a tasklet_kill() or tasklet_disable*() that a
/// path reaches before the same function initialises that tasklet (an
/// error unwind that jumps over the init). tasklet_kill() of a zeroed
/// tasklet does nothing; cancel_work_sync() of a never-INIT_WORKed item
/// WARNs (__flush_work: WARN_ON(!work->func)), CONTRACT.md pitfall 2b.
/// Each match prints "DETASKLET-UNINIT <call line>"; classify.py leaves the
/// file unconverted with that place. A kill renamed to its chosen
/// replacement's marker (__detasklet_kill_*) counts as a kill.
// Confidence: Moderate (only within one function: a kill in remove()
// of a tasklet that probe() initialises on some paths is not seen; a
// kill behind a condition that implies the init, bnxt_re's need_init,
// is refused too).
// Options: --no-includes --include-headers --macro-file cocci/parsing-hints.h

// Functions that initialise a tasklet E somewhere.
@ini exists@
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
@kb exists@
identifier ini.fn;
identifier sync =~ "^(tasklet_(kill|disable|disable_nosync|unlock_wait)|__detasklet_kill_[a-z_]+)$";
expression ini.E;
position p;
@@
fn(...) {
... when != tasklet_setup(E, ...)
    when != tasklet_init(E, ...)
sync@p(E)
... when any
}

@script:python@
p << kb.p;
@@
print("DETASKLET-UNINIT %s 0" % p[0].line)
