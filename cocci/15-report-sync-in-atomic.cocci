// SPDX-License-Identifier: GPL-2.0-only
/// A tasklet_kill(), tasklet_disable() or tasklet_unlock_wait() that can run
/// with a spinlock held, or interrupts, bottom halves or preemption off:
/// its work_struct replacement may sleep, so the call must move first.
// Confidence: Moderate
// Comments: Reports only. The section starts at a lock call (spinlocks,
//  rwlocks, local locks in every irq/bh/nested spelling), local_irq_save()
//  or _disable(), local_bh_disable(), rcu_read_lock*() or preempt_disable(),
//  or at a <linux/cleanup.h> guard() or scoped_guard() of such a lock; any
//  unlock of the same lock ends it. cancel_work_sync(), disable_work_sync()
//  and flush_work() may sleep, and take the pool lock with
//  raw_spin_lock_irq(), which turns interrupts back on. A lock released
//  through another spelling of it reads as still held: that over-reports.
//  With -D facts (make convert), calls of the group's functions that reach
//  one of these calls count too (b43legacy kills under irq_lock through
//  b43legacy_synchronize_irq()), and a kill the driver renamed to the
//  marker of its chosen replacement (__detasklet_kill_*) is a kill, and a
//  tasklet_disable_in_atomic() decided to be disable_work_sync()
//  (__detasklet_disable_sync) is a disable.
// Options: --no-includes --include-headers

virtual report
virtual facts

@initialize:python@
@@
# Functions of the group that reach a sync tasklet call (-D facts).
sync_helpers = set()
# guard() scopes (file, line, line of the end of its block) and the sync
# calls of each file, matched by the rules below and paired at the end:
# coccinelle.* so that finalize merges them from every --jobs worker, as
# plain tuples (merging marshals them).
coccinelle.guard_scopes = []
coccinelle.sync_calls = []

@script:python depends on facts@
@@
import detasklet_cocci
sync_helpers.update(detasklet_cocci.sync_helpers())

// exists: one path from the lock to the call without its unlock is
// enough. helper: a function of the group that reaches one of the calls
// (its constraint is checked before the path search, so other calls cost
// little).
@sync_under_lock depends on report exists@
position p, q;
expression L, F, E;
identifier lk =~ "^(raw_)?spin_lock(_irq|_irqsave|_bh|_nested|_irqsave_nested|_bh_nested)?$|^(read|write)_lock(_irq|_irqsave|_bh)?$|^local_lock(_irq|_irqsave|_nested_bh)?$";
identifier ulk =~ "^(raw_)?spin_unlock(_irq|_irqrestore|_bh)?$|^(read|write)_unlock(_irq|_irqrestore|_bh)?$|^local_unlock(_irq|_irqrestore|_nested_bh)?$";
identifier helper : script:python () { helper in sync_helpers };
identifier marked =~ "^__detasklet_(kill_|disable_sync$)";
@@
(
lk@q(L, ...)
|
local_irq_save@q(F)
|
local_irq_disable@q()
|
local_bh_disable@q()
|
rcu_read_lock@q()
|
rcu_read_lock_bh@q()
|
rcu_read_lock_sched@q()
|
preempt_disable@q()
)
... when != ulk(L, ...)
    when != local_irq_restore(F)
    when != local_irq_enable()
    when != local_bh_enable()
    when != rcu_read_unlock()
    when != rcu_read_unlock_bh()
    when != rcu_read_unlock_sched()
    when != preempt_enable()
(
tasklet_kill@p(E)
|
marked@p(...)
|
tasklet_disable@p(E)
|
tasklet_unlock_wait@p(E)
|
helper@p(...)
)

@script:python depends on report@
p << sync_under_lock.p;
q << sync_under_lock.q;
@@
coccilib.report.print_report(p[0], "sync call in atomic context (lock or irqs off since "
                             "line %s): its work_struct replacement may sleep" % q[0].line)

// scoped_guard(C, args) S holds its lock for S alone (one statement or a
// block; cocci/parsing-hints.h makes it an iterator). C: the guard classes
// that spin or turn irqs, bottom halves or preemption off (spinlock.h,
// rwlock, local_lock.h, irqflags.h, preempt.h, rcupdate.h); mutex, rwsem,
// srcu and migrate guards may sleep and are left alone.
@sync_in_scoped_guard depends on report exists@
iterator name scoped_guard, scoped_cond_guard;
identifier C =~ "^(irq|irqsave|preempt|preempt_notrace|rcu|(raw_)?spinlock[a-z_]*|(read|write)_lock[a-z_]*|local_lock[a-z_]*)$";
identifier helper : script:python () { helper in sync_helpers };
identifier sync =~ "^(tasklet_(kill|disable|unlock_wait)|__detasklet_kill_[a-z_]+|__detasklet_disable_sync)$";
expression E;
position p, q;
@@
(
scoped_guard@q(C, ...) { <+... sync@p(E) ...+> }
|
scoped_cond_guard@q(C, ...) { <+... sync@p(E) ...+> }
|
scoped_guard@q(C, ...) { <+... helper@p(...) ...+> }
|
scoped_cond_guard@q(C, ...) { <+... helper@p(...) ...+> }
)

@script:python depends on report@
p << sync_in_scoped_guard.p;
q << sync_in_scoped_guard.q;
@@
coccilib.report.print_report(p[0], "sync call in atomic context (lock or irqs off since "
                             "line %s): its work_struct replacement may sleep" % q[0].line)

// guard(C)(args); holds its lock to the end of the block it is in. Every
// block around it matches (exists: a path from its start reaches the
// guard); the end of the innermost one is the end of the scope.
@guard_scope depends on report exists@
identifier C =~ "^(irq|irqsave|preempt|preempt_notrace|rcu|(raw_)?spinlock[a-z_]*|(read|write)_lock[a-z_]*|local_lock[a-z_]*)$";
position q, e;
@@
{
...
guard@q(C)(...);
...
}@e

@script:python depends on report@
q << guard_scope.q;
e << guard_scope.e;
@@
coccinelle.guard_scopes.append((q[0].file, int(q[0].line), int(e[0].line)))

@sync_call depends on report@
identifier helper : script:python () { helper in sync_helpers };
identifier marked =~ "^__detasklet_(kill_|disable_sync$)";
expression E;
position p;
@@
(
tasklet_kill@p(E)
|
marked@p(...)
|
tasklet_disable@p(E)
|
tasklet_unlock_wait@p(E)
|
helper@p(...)
)

@script:python depends on report@
p << sync_call.p;
@@
coccinelle.sync_calls.append((p[0].file, int(p[0].line), p[0].column, p[0].column_end))

// A sync call after a guard and before the end of its innermost block runs
// under it. Lines, not columns: a guard and a call on one line is not
// kernel style, and reading it as held over-reports.
@finalize:python@
all_scopes << merge.guard_scopes;
all_calls << merge.sync_calls;
@@
from types import SimpleNamespace
scopes = {}
for f, q, e in (s for part in all_scopes for s in part):
    scopes[(f, q)] = min(e, scopes.get((f, q), e))
calls = {(f, line): (c, ce) for part in all_calls for f, line, c, ce in part}
for (f, line), (c, ce) in sorted(calls.items()):
    held = [q for (g, q), e in scopes.items() if g == f and q <= line <= e]
    if held:
        p = SimpleNamespace(file=f, line=line, column=c, column_end=ce)
        coccilib.report.print_report(p, "sync call in atomic context (lock or irqs off "
                                     "since line %d): its work_struct replacement may "
                                     "sleep" % max(held))
