/// Report, do not rewrite: a tasklet_kill(), tasklet_disable() or
/// tasklet_unlock_wait() reached while a spinlock is held, interrupts or
/// bottom halves are off, or in an RCU read-side or preempt-off section,
/// taken by a call or by a <linux/cleanup.h> guard() or scoped_guard().
/// Their replacements (cancel_work_sync, disable_work_sync, flush_work)
/// may sleep, and take the pool lock with raw_spin_lock_irq(), which
/// turns interrupts back on (CONTRACT.md pitfalls 2 and 2c; b43legacy
/// kills under irq_lock through b43legacy_synchronize_irq()). Each match
/// prints "DETASKLET-ATOMIC <call line> <lock line>"; rewrite.py reads
/// them and classify.py leaves the file unconverted with that place. A
/// kill the driver renamed to its chosen replacement's marker
/// (__detasklet_kill_*, see 40-calls.cocci) is a kill here too.
// Confidence: Moderate (a lock released through another spelling of the
// same lock reads as still held: that over-refuses, it never converts).
// Options: --no-includes --include-headers --macro-file cocci/parsing-hints.h

@initialize:python@
@@
import os
# Functions of the group that reach a sync tasklet call (facts.py):
# calling one of them under a lock is the same hazard, one level up.
sync_helpers = set(h for h in os.environ.get("DETASKLET_SYNC_HELPERS", "").split(",") if h)
# guard() scopes (line, line of the end of its block) and the lines of the
# sync calls of the file, matched by the rules below and paired at the end.
guard_scopes = []
sync_lines = []

// exists: one path from the lock to the call without its unlock is
// enough. The lock calls go by name (spinlocks, rwlocks, local locks, in
// every irq/bh/nested spelling); any unlock call of the same lock ends the
// section. helper: a function of the group that reaches one of the calls
// (its constraint is checked before the path search, so other calls cost
// little).
@sa exists@
position p, q;
expression L, F, E;
identifier lk =~ "^(raw_)?spin_lock(_irq|_irqsave|_bh|_nested|_irqsave_nested|_bh_nested)?$|^(read|write)_lock(_irq|_irqsave|_bh)?$|^local_lock(_irq|_irqsave|_nested_bh)?$";
identifier ulk =~ "^(raw_)?spin_unlock(_irq|_irqrestore|_bh)?$|^(read|write)_unlock(_irq|_irqrestore|_bh)?$|^local_unlock(_irq|_irqrestore|_nested_bh)?$";
identifier helper : script:python () { helper in sync_helpers };
identifier sync =~ "^__detasklet_kill_";
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
sync@p(E)
|
tasklet_disable@p(E)
|
tasklet_unlock_wait@p(E)
|
helper@p(...)
)

@script:python@
p << sa.p;
q << sa.q;
@@
print("DETASKLET-ATOMIC %s %s" % (p[0].line, q[0].line))

// scoped_guard(C, args) S holds its lock for S alone (one statement or a
// block; cocci/parsing-hints.h makes it an iterator). C: the guard classes
// of 6.12 that spin or turn irqs, bottom halves or preemption off
// (spinlock.h, rwlock, local_lock.h, irqflags.h, preempt.h, rcupdate.h);
// mutex, rwsem, srcu and migrate guards may sleep and are left alone.
@sg exists@
iterator name scoped_guard, scoped_cond_guard;
identifier C =~ "^(irq|irqsave|preempt|preempt_notrace|rcu|(raw_)?spinlock[a-z_]*|(read|write)_lock[a-z_]*|local_lock[a-z_]*)$";
identifier helper : script:python () { helper in sync_helpers };
identifier sync =~ "^(tasklet_(kill|disable|unlock_wait)|__detasklet_kill_[a-z_]+)$";
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

@script:python@
p << sg.p;
q << sg.q;
@@
print("DETASKLET-ATOMIC %s %s" % (p[0].line, q[0].line))

// guard(C)(args); holds its lock to the end of the block it is in. Every
// block around it matches (exists: a path from its start reaches the
// guard); the end of the innermost one is the end of the scope.
@gb exists@
identifier C =~ "^(irq|irqsave|preempt|preempt_notrace|rcu|(raw_)?spinlock[a-z_]*|(read|write)_lock[a-z_]*|local_lock[a-z_]*)$";
position q, e;
@@
{
...
guard@q(C)(...);
...
}@e

@script:python@
q << gb.q;
e << gb.e;
@@
guard_scopes.append((int(q[0].line), int(e[0].line)))

@gc@
identifier helper : script:python () { helper in sync_helpers };
identifier sync =~ "^__detasklet_kill_";
expression E;
position p;
@@
(
tasklet_kill@p(E)
|
sync@p(E)
|
sync@p(E)
|
tasklet_disable@p(E)
|
tasklet_unlock_wait@p(E)
|
helper@p(...)
)

@script:python@
p << gc.p;
@@
sync_lines.append(int(p[0].line))

// A sync call after a guard and before the end of its innermost block runs
// under it. Lines, not columns: a guard and a call on one line is not
// kernel style, and reading it as held over-refuses.
@finalize:python@
@@
scopes = {}
for q, e in guard_scopes:
    scopes[q] = min(e, scopes.get(q, e))
for p in sorted(set(sync_lines)):
    held = [q for q, e in scopes.items() if q <= p <= e]
    if held:
        print("DETASKLET-ATOMIC %d %d" % (p, max(held)))
