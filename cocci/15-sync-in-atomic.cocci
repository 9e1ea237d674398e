/// Report, do not rewrite: a tasklet_kill(), tasklet_disable() or
/// tasklet_unlock_wait() reached while a spinlock is held, interrupts or
/// bottom halves are off, or in an RCU read-side or preempt-off section.
/// Their replacements (cancel_work_sync, disable_work_sync, flush_work)
/// may sleep, and take the pool lock with raw_spin_lock_irq(), which
/// turns interrupts back on (CONTRACT.md pitfalls 2 and 2c; b43legacy
/// kills under irq_lock through b43legacy_synchronize_irq()). Each match
/// prints "DETASKLET-ATOMIC <call line> <lock line>"; rewrite.py reads
/// them and classify.py leaves the file unconverted with that place.
// Confidence: Moderate (a lock released through another spelling of the
// same lock reads as still held: that over-refuses, it never converts).
// Options: --no-includes --include-headers

@initialize:python@
@@
import os
# Functions of the group that reach a sync tasklet call (facts.py):
# calling one of them under a lock is the same hazard, one level up.
sync_helpers = set(h for h in os.environ.get("DETASKLET_SYNC_HELPERS", "").split(",") if h)

// exists: one path from the lock to the call without its unlock is
// enough. helper: a function of the group that reaches one of the calls
// (its constraint is checked before the path search, so other calls cost
// little).
@sa exists@
position p, q;
expression L, F, E;
identifier helper : script:python () { helper in sync_helpers };
@@
(
spin_lock_irqsave@q(L, F)
|
spin_lock_irq@q(L)
|
spin_lock@q(L)
|
spin_lock_bh@q(L)
|
raw_spin_lock_irqsave@q(L, F)
|
raw_spin_lock@q(L)
|
local_irq_save@q(F)
|
local_irq_disable@q()
|
local_bh_disable@q()
|
rcu_read_lock@q()
|
preempt_disable@q()
)
... when != spin_unlock_irqrestore(L, F)
    when != spin_unlock_irq(L)
    when != spin_unlock(L)
    when != spin_unlock_bh(L)
    when != raw_spin_unlock_irqrestore(L, F)
    when != raw_spin_unlock(L)
    when != local_irq_restore(F)
    when != local_irq_enable()
    when != local_bh_enable()
    when != rcu_read_unlock()
    when != preempt_enable()
(
tasklet_kill@p(E)
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
