/// Legacy callbacks that keep their body: the old unsigned long argument
/// becomes a local variable holding the value the tasklet core passed.
/// The driver proves each callback first (scripts/detasklet/legacydata.py)
/// and passes it in DETASKLET_LEGACY_LOCAL with the expression of that
/// value: (unsigned long)container_of(work, C, f) when every init passed
/// the container, container_of(work, C, f)->f_data when some init passed
/// another value, which the init now stores in the new field f_data (the
/// driver declares it next to the member). Equivalent: the callback sees
/// the data that tasklet_init() stored, and nothing else writes it.
/// A callback that is also called directly (caam's suspend path) keeps its
/// unsigned long parameter and body; the init points the work item at a
/// new cb_work() that calls cb with that same value (rewrite.py adds it).
// Confidence: High
// Options: --no-includes --include-headers --macro-file cocci/parsing-hints.h

// The inits. "field": the data moves from the tasklet into f_data.
@ldi disable ptr_to_array@
expression E, D;
identifier F, cb;
@@
(
tasklet_init(&E->F, cb, D);
|
tasklet_init(&E.F, cb, D);
|
tasklet_init(&(E->F), cb, D);
)

// wcb: the function the work item runs, cb itself or, when cb is also
// called directly and keeps its parameter, the wrapper cb_work() that
// rewrite.py defines (legacydata.add_wrappers).
@script:python ldif@
cb << ldi.cb;
f << ldi.F;
fd;
wcb;
@@
import detasklet_cocci
c = detasklet_cocci.legacy_local(cb)
if c.get("kind") == "field" and c.get("field") == f:
    coccinelle.fd = cocci.make_ident(f + "_data")
    coccinelle.wcb = cocci.make_ident(c.get("wrapper") or cb)
else:
    cocci.include_match(False)

// ptr_to_array off: it would match &p->a[i].f as &(p->a)->f, and the new
// assignment would then store into p->a[0]. &(p->f) loses its parentheses
// (checkpatch UNNECESSARY_PARENTHESES on the line we rewrite).
@ldiw disable ptr_to_array@
identifier ldi.cb, ldif.fd, ldif.wcb, F;
expression E, D;
@@
(
- tasklet_init(&E->F, cb, D);
+ E->fd = D;
+ INIT_WORK(&E->F, wcb);
|
- tasklet_init(&E.F, cb, D);
+ E.fd = D;
+ INIT_WORK(&E.F, wcb);
|
- tasklet_init(&(E->F), cb, D);
+ E->fd = D;
+ INIT_WORK(&E->F, wcb);
)

// "container": the data was the container, which the callback recomputes.
// A match rule of its own: include_match(False) above dropped these inits
// from ldi for every later rule.
@ldj disable ptr_to_array@
expression E, D;
identifier F, cb;
@@
(
tasklet_init(&E->F, cb, D);
|
tasklet_init(&E.F, cb, D);
|
tasklet_init(&(E->F), cb, D);
)

@script:python ldic@
cb << ldj.cb;
f << ldj.F;
@@
import detasklet_cocci
c = detasklet_cocci.legacy_local(cb)
if c.get("kind") != "container" or c.get("field") != f:
    cocci.include_match(False)

@@
identifier ldj.cb;
expression E1, E2;
@@
- tasklet_init(E1, cb, E2);
+ INIT_WORK(E1, cb);

// The callback: same body, its old parameter now a local variable first,
// of the same type (unsigned long, or uintptr_t: the driver checked).
@ldcb@
identifier fn, d;
type T;
@@
void fn(T d)
{
  ...
}

@script:python ldcbv@
fn << ldcb.fn;
v;
@@
import detasklet_cocci
c = detasklet_cocci.legacy_local(fn)
if c and not c.get("wrapper"):
    coccinelle.v = cocci.make_ident(c["expr"])
else:
    cocci.include_match(False)

@@
identifier ldcb.fn, ldcb.d, ldcbv.v;
type ldcb.T;
@@
void fn(
- T d
+ struct work_struct *work
 )
{
+ T d = v;
  ...
}

// Prototypes (here or in a header of the group), with or without a name.
@ldp@
identifier fn, d;
type T;
@@
(
void fn(T d);
|
void fn(T);
)

@script:python ldpk@
fn << ldp.fn;
@@
import detasklet_cocci
c = detasklet_cocci.legacy_local(fn)
if not c or c.get("wrapper"):
    cocci.include_match(False)

@@
identifier ldp.fn, d;
type ldp.T;
@@
(
void fn(
- T d
+ struct work_struct *work
 );
|
void fn(
- T
+ struct work_struct *work
 );
)
