// SPDX-License-Identifier: GPL-2.0-only
/// Legacy tasklet_init() whose data is the object that contains the tasklet
/// becomes INIT_WORK(), and its callback finds that object with from_work():
/// the same pointer, since data was that container at every init.
// Confidence: High
// Comments: Needs -D facts (make convert): the driver finds every legacy
//  init of a group, proves the container, and passes "callback=field"
//  pairs (DETASKLET_LEGACY), keeping only callbacks used with one field;
//  the callback may live in another file of the group. Without the facts
//  nothing is rewritten. Any other data shape is left alone, so the group
//  stays unconverted (or cocci/22-legacy-data.cocci takes it).
// Options: --no-includes --include-headers

virtual patch
virtual report
virtual facts

// The init: data is the container D of the tasklet field F (pm8001 writes &(D)).
@container_init depends on facts@
expression D;
identifier F, cb;
type T;
@@
(
tasklet_init(&D->F, cb, (T)D);
|
tasklet_init(&D.F, cb, (T)&D);
|
tasklet_init(&D.F, cb, (T)&(D));
|
tasklet_init(&D->F, (void *)cb, (T)D);
)

@script:python container_init_proven depends on facts@
cb << container_init.cb;
f << container_init.F;
@@
import detasklet_cocci
if detasklet_cocci.legacy_field(cb) != f:
    cocci.include_match(False)

// Fresh metavariables here: the cast isomorphism can bind container_init.D twice for
// one init, and two bindings may not rewrite the same tokens.
@patch_container_init depends on patch && facts@
identifier container_init.cb;
expression E1, E2;
@@
(
- tasklet_init(E1, (void *)cb, E2);
+ INIT_WORK(E1, cb);
|
- tasklet_init(E1, cb, E2);
+ INIT_WORK(E1, cb);
)

// The init through an alias of the container's member: mdev = &dev->mt76;
// tasklet_init(&mdev->f, cb, (unsigned long)dev). The driver proved the
// alias (convert/facts/legacy.py, last assignment before the init) and passes "mt76.f".
// The same for a tasklet in a member struct of the container,
// tasklet_init(&asd_ha->seq.dl_tasklet, cb, (unsigned long)asd_ha):
// the driver passes "seq.dl_tasklet".
@alias_init depends on facts@
expression M, D;
identifier F, cb;
type T;
@@
(
tasklet_init(&M->F, cb, (T)D);
|
tasklet_init(&M.F, cb, (T)D);
|
tasklet_init(&M.F, (void *)cb, (T)D);
)

@script:python alias_init_proven depends on facts@
cb << alias_init.cb;
f << alias_init.F;
@@
import detasklet_cocci
if not detasklet_cocci.legacy_field(cb).endswith("." + f):
    cocci.include_match(False)

@patch_alias_init depends on patch && facts@
identifier alias_init.cb;
expression E1, E2;
@@
(
- tasklet_init(E1, (void *)cb, E2);
+ INIT_WORK(E1, cb);
|
- tasklet_init(E1, cb, E2);
+ INIT_WORK(E1, cb);
)

// The callback: its parameter is read once, as the container pointer.
@cb_one_read depends on facts@
identifier fn, d, p;
type P, C;
@@
void fn(unsigned long d)
{
  ... when != d
  P *p = (C *)d;
  ... when != d
}

@script:python cb_one_read_field depends on facts@
fn << cb_one_read.fn;
f;
@@
import detasklet_cocci
field = detasklet_cocci.legacy_field(fn)
if field:
    coccinelle.f = cocci.make_ident(field)
else:
    cocci.include_match(False)

@patch_cb_one_read depends on patch && facts@
identifier cb_one_read.fn, cb_one_read_field.f, d, p;
type P, C;
@@
void fn(
- unsigned long d
+ struct work_struct *work
 )
{
  ... when != d
- P *p = (C *)d;
+ P *p = from_work(p, work, f);
  ...
}

// The same for a callback that takes void * (registered through a
// (void *) cast, which the init above drops): P *p = d; or P *p = (C *)d;
@cb_void_param depends on facts@
identifier fn, d, p;
type P;
@@
void fn(void *d)
{
  ... when != d
  P *p = \(d\|(P *)d\);
  ... when != d
}

@script:python cb_void_param_field depends on facts@
fn << cb_void_param.fn;
f;
@@
import detasklet_cocci
field = detasklet_cocci.legacy_field(fn)
if field:
    coccinelle.f = cocci.make_ident(field)
else:
    cocci.include_match(False)

@patch_cb_void_param depends on patch && facts@
identifier cb_void_param.fn, cb_void_param_field.f, d, p;
type P;
@@
void fn(
- void *d
+ struct work_struct *work
 )
{
  ... when != d
- P *p = \(d\|(P *)d\);
+ P *p = from_work(p, work, f);
  ...
}

// The callback reads its argument only through casts to the container,
// (C *)d, perhaps several times (fore200e: a declaration and a call
// argument): each cast becomes container_of(work, C, f), the same pointer
// since data was the container at every init (cb_casts_field). A use of d
// that is not such a cast (also (void *)d, which names no container) is
// left for convert/rewrite/classify.py (legacy_check), which refuses
// the file when the old parameter name is still read in the new body.
@cb_casts depends on facts@
identifier fn, d;
type C;
@@
void fn(unsigned long d)
{
  <+... (C *)d ...+>
}

@script:python cb_casts_field depends on facts@
fn << cb_casts.fn;
f;
@@
import detasklet_cocci
field = detasklet_cocci.legacy_field(fn)
if field:
    coccinelle.f = cocci.make_ident(field)
else:
    cocci.include_match(False)

// A cast that initialises a declaration becomes from_work(), as in the
// one-read form above (and the declaration is printed anew, in kernel
// style: fore200e wrote "struct fore200e* fore200e").
@patch_cb_cast_decl depends on patch && facts@
identifier cb_casts.fn, cb_casts_field.f, d, p;
type P, C;
@@
void fn(unsigned long d)
{
  <...
- P *p = (C *)d;
+ P *p = from_work(p, work, f);
  ...>
}

@patch_cb_casts depends on patch && facts@
identifier cb_casts.fn, cb_casts_field.f, d;
type C;
@@
void fn(
- unsigned long d
+ struct work_struct *work
 )
{
  <...
(
  (void *)d
|
- (C *)d
+ container_of(work, C, f)
)
  ...>
}

// Prototypes (here or in a header of the group), with or without a name.
@cb_proto depends on facts@
identifier fn, d;
@@
(
void fn(unsigned long d);
|
void fn(unsigned long);
)

@script:python cb_proto_proven depends on facts@
fn << cb_proto.fn;
@@
import detasklet_cocci
if not detasklet_cocci.legacy_field(fn):
    cocci.include_match(False)

@patch_cb_proto depends on patch && facts@
identifier cb_proto.fn, d;
@@
(
void fn(
- unsigned long d
+ struct work_struct *work
 );
|
void fn(
- unsigned long
+ struct work_struct *work
 );
)

// Direct calls of the callback pass the tasklet, as the core would.
@cb_direct_call depends on facts@
identifier fn;
expression E;
type T;
@@
fn((T)E)

@script:python cb_direct_call_field depends on facts@
fn << cb_direct_call.fn;
f;
@@
import detasklet_cocci
field = detasklet_cocci.legacy_field(fn)
if field:
    coccinelle.f = cocci.make_ident(field)
else:
    cocci.include_match(False)

@patch_cb_direct_call depends on patch && facts@
identifier cb_direct_call.fn, cb_direct_call_field.f;
expression cb_direct_call.E;
type cb_direct_call.T;
@@
- fn((T)E)
+ fn(&E->f)

// Report mode (make coccicheck MODE=report, run alone): each place MODE=patch
// would change, and why. make convert runs every mode at once with -D facts,
// so these rules do not run there (!facts): its output is unchanged.
// The rewrite needs the facts make convert proves across the files of a
// group (-D facts): alone, this file changes nothing, and says so here.
@report_legacy_init depends on report && !facts@
expression E, cb, D;
position p;
@@
 tasklet_init@p(E, cb, D)

@script:python depends on report && !facts@
p << report_legacy_init.p;
@@
coccilib.report.print_report(p[0], "tasklet_init() with data: this rule rewrites it only with the facts make convert proves for the driver's group (-D facts); alone it changes nothing")

// Alone in MODE=patch (no -D facts) nothing is rewritten. spatch refuses a
// semantic patch none of whose transforming rules is enabled ("No rules
// apply"): this one is enabled there and matches nothing (no kernel code
// calls that name), so that a run alone does nothing instead of failing.
@legacy_init_alone depends on patch && !facts@
identifier needs_facts = {__detasklet_legacy_init_alone_needs_the_facts};
@@
- needs_facts();
