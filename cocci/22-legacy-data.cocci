// SPDX-License-Identifier: GPL-2.0-only
/// Legacy callbacks that keep their body: the old unsigned long argument
/// becomes a local variable holding the value the tasklet core passed, read
/// back from the container or from a new field next to the work item.
// Confidence: High
// Comments: Needs -D facts (make convert): the driver proves each callback
//  (scripts/detasklet/convert/facts/legacy_local.py) and passes it in
//  DETASKLET_LEGACY_LOCAL with the expression of that value:
//  (unsigned long)container_of(work, C, f) when every init passed the
//  container, (unsigned long)&container_of(work, C, f)->P when every init
//  passed &E->P of the tasklet's own container E (a member's address, a
//  fixed offset), (unsigned long)container_of(work, C, f)->g when the init's
//  function had just stored the data in E->g, which nothing else writes,
//  container_of(work, C, f)->f_data when some init passed
//  another value, which the init now stores in the new field f_data (the
//  driver declares it next to the member). Equivalent: the callback sees
//  the data that tasklet_init() stored, and nothing else writes it. A
//  callback that is also called directly (caam's suspend path) keeps its
//  unsigned long parameter and body; the init points the work item at a
//  new cb_work() that calls cb with that same value (the driver adds it).
// Options: --no-includes --include-headers

virtual patch
virtual report
virtual facts

// The inits. "field": the data moves from the tasklet into f_data.
@field_init depends on facts disable ptr_to_array@
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
// the driver defines (convert/rewrite/fixups.py, add_wrappers).
@script:python field_init_proven depends on facts@
cb << field_init.cb;
f << field_init.F;
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
@patch_field_init depends on patch && facts disable ptr_to_array@
identifier field_init.cb, field_init_proven.fd, field_init_proven.wcb, F;
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
// from field_init for every later rule.
@container_local_init depends on facts disable ptr_to_array@
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

// "member": the data was the address of a member of that container
// (&E->P), which the callback (or its wrapper) recomputes the same way;
// "mirror": the data was just stored in a member g of that container,
// which nothing else writes, and the callback reads it back from there.
@script:python container_local_init_proven depends on facts@
cb << container_local_init.cb;
f << container_local_init.F;
wcb;
@@
import detasklet_cocci
c = detasklet_cocci.legacy_local(cb)
if c.get("kind") not in ("container", "member", "mirror") or c.get("field") != f:
    cocci.include_match(False)
else:
    coccinelle.wcb = cocci.make_ident(c.get("wrapper") or cb)

@patch_container_local_init depends on patch && facts@
identifier container_local_init.cb, container_local_init_proven.wcb;
expression E1, E2;
@@
- tasklet_init(E1, cb, E2);
+ INIT_WORK(E1, wcb);

// The callback: same body, its old parameter now a local variable first,
// of the same type (unsigned long, or uintptr_t: the driver checked).
@local_cb depends on facts@
identifier fn, d;
type T;
@@
void fn(T d)
{
  ...
}

@script:python local_cb_value depends on facts@
fn << local_cb.fn;
v;
@@
import detasklet_cocci
c = detasklet_cocci.legacy_local(fn)
if c and not c.get("wrapper"):
    coccinelle.v = cocci.make_ident(c["expr"])
else:
    cocci.include_match(False)

@patch_local_cb depends on patch && facts@
identifier local_cb.fn, local_cb.d, local_cb_value.v;
type local_cb.T;
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
@local_cb_proto depends on facts@
identifier fn, d;
type T;
@@
(
void fn(T d);
|
void fn(T);
)

@script:python local_cb_proto_proven depends on facts@
fn << local_cb_proto.fn;
@@
import detasklet_cocci
c = detasklet_cocci.legacy_local(fn)
if not c or c.get("wrapper"):
    cocci.include_match(False)

@patch_local_cb_proto depends on patch && facts@
identifier local_cb_proto.fn, d;
type local_cb_proto.T;
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

// Report mode (make coccicheck MODE=report, run alone): each place MODE=patch
// would change, and why. make convert runs every mode at once with -D facts,
// so these rules do not run there (!facts): its output is unchanged.
// The rewrite needs the facts make convert proves across the files of a
// group (-D facts): alone, this file changes nothing, and says so here.
@report_legacy_data depends on report && !facts@
expression E, cb, D;
position p;
@@
 tasklet_init@p(E, cb, D)

@script:python depends on report && !facts@
p << report_legacy_data.p;
@@
coccilib.report.print_report(p[0], "tasklet_init() with data: this rule moves the data next to the work item only with the facts make convert proves for the driver's group (-D facts); alone it changes nothing")

// Alone in MODE=patch (no -D facts) nothing is rewritten. spatch refuses a
// semantic patch none of whose transforming rules is enabled ("No rules
// apply"): this one is enabled there and matches nothing (no kernel code
// calls that name), so that a run alone does nothing instead of failing.
@legacy_data_alone depends on patch && !facts@
identifier needs_facts = {__detasklet_legacy_data_alone_needs_the_facts};
@@
- needs_facts();
