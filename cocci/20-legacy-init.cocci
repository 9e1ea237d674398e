/// Legacy tasklet_init() whose data is the object that contains the tasklet:
/// INIT_WORK() and a callback that finds that object with from_work().
/// Equivalent (CONTRACT.md, "data is the object that contains the tasklet").
/// The callback may live in another file of the group: the driver finds
/// every legacy init of the group and passes "callback=field" pairs in
/// DETASKLET_LEGACY, keeping only callbacks used with one field (pitfall 5).
/// Any other data shape is left alone, so the group stays unconverted.
// Confidence: High
// Options: --no-includes --include-headers --macro-file cocci/parsing-hints.h

// The init: data is the container D of the tasklet field F.
@li@
expression D;
identifier F, cb;
type T;
@@
(
tasklet_init(&D->F, cb, (T)D);
|
tasklet_init(&D.F, cb, (T)&D);
|
tasklet_init(&D->F, (void *)cb, (T)D);
)

@script:python lione@
cb << li.cb;
f << li.F;
@@
import detasklet_cocci
if detasklet_cocci.legacy_field(cb) != f:
    cocci.include_match(False)

// Fresh metavariables here: the cast isomorphism can bind li.D twice for
// one init, and two bindings may not rewrite the same tokens.
@@
identifier li.cb;
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
// alias (facts.py, last assignment before the init) and passes "mt76.f".
// The same for a tasklet in a member struct of the container,
// tasklet_init(&asd_ha->seq.dl_tasklet, cb, (unsigned long)asd_ha):
// the driver passes "seq.dl_tasklet".
@lia@
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

@script:python liaone@
cb << lia.cb;
f << lia.F;
@@
import detasklet_cocci
if not detasklet_cocci.legacy_field(cb).endswith("." + f):
    cocci.include_match(False)

@@
identifier lia.cb;
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
@lcbdef@
identifier fn, d, p;
type P, C;
@@
void fn(unsigned long d)
{
  ... when != d
  P *p = (C *)d;
  ... when != d
}

@script:python lcb@
fn << lcbdef.fn;
f;
@@
import detasklet_cocci
field = detasklet_cocci.legacy_field(fn)
if field:
    coccinelle.f = cocci.make_ident(field)
else:
    cocci.include_match(False)

@@
identifier lcbdef.fn, lcb.f, d, p;
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
@lcbvoid@
identifier fn, d, p;
type P;
@@
void fn(void *d)
{
  ... when != d
  P *p = \(d\|(P *)d\);
  ... when != d
}

@script:python lcbv@
fn << lcbvoid.fn;
f;
@@
import detasklet_cocci
field = detasklet_cocci.legacy_field(fn)
if field:
    coccinelle.f = cocci.make_ident(field)
else:
    cocci.include_match(False)

@@
identifier lcbvoid.fn, lcbv.f, d, p;
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
// since data was the container at every init (script lcb2). A use of d
// that is not such a cast (also (void *)d, which names no container) is
// left for classify.legacy_check, which refuses
// the file when the old parameter name is still read in the new body.
@lcbcast@
identifier fn, d;
type C;
@@
void fn(unsigned long d)
{
  <+... (C *)d ...+>
}

@script:python lcb2@
fn << lcbcast.fn;
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
@@
identifier lcbcast.fn, lcb2.f, d, p;
type P, C;
@@
void fn(unsigned long d)
{
  <...
- P *p = (C *)d;
+ P *p = from_work(p, work, f);
  ...>
}

@@
identifier lcbcast.fn, lcb2.f, d;
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
@lproto@
identifier fn, d;
@@
(
void fn(unsigned long d);
|
void fn(unsigned long);
)

@script:python lprotok@
fn << lproto.fn;
@@
import detasklet_cocci
if not detasklet_cocci.legacy_field(fn):
    cocci.include_match(False)

@@
identifier lproto.fn, d;
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
@lcall@
identifier fn;
expression E;
type T;
@@
fn((T)E)

@script:python lcallk@
fn << lcall.fn;
f;
@@
import detasklet_cocci
field = detasklet_cocci.legacy_field(fn)
if field:
    coccinelle.f = cocci.make_ident(field)
else:
    cocci.include_match(False)

@@
identifier lcall.fn, lcallk.f;
expression lcall.E;
type lcall.T;
@@
- fn((T)E)
+ fn(&E->f)
