/// Legacy tasklet_init() whose data is the object that contains the tasklet:
/// INIT_WORK() and a callback that finds that object with from_work().
/// Equivalent (CONTRACT.md, "data is the object that contains the tasklet").
/// Any other data shape is left alone, so the file stays unconverted.
// Confidence: High
// Options: --no-includes --include-headers

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
)

// Callbacks defined in this file whose parameter is used once, as the
// container pointer.
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

// Only a callback used by one tasklet field can name it in from_work():
// first record every (callback, field) pair, then keep the lone ones.
@script:python@
cb << li.cb;
f << li.F;
@@
import detasklet_cocci
detasklet_cocci.record(cb, f)

@script:python lone@
cb << li.cb;
fn << lcbdef.fn;
f << li.F;
lcb;
@@
import detasklet_cocci
if cb == fn and detasklet_cocci.one_field(cb, f):
    coccinelle.lcb = cocci.make_ident(cb)
else:
    cocci.include_match(False)

@@
identifier lone.lcb, li.F, d, p;
type P, C;
@@
void lcb(
- unsigned long d
+ struct work_struct *work
 )
{
  ... when != d
- P *p = (C *)d;
+ P *p = from_work(p, work, F);
  ...
}

// Prototypes, with or without a parameter name.
@@
identifier lone.lcb, d;
@@
void lcb(
- unsigned long d
+ struct work_struct *work
 );

@@
identifier lone.lcb;
@@
void lcb(
- unsigned long
+ struct work_struct *work
 );

// Direct calls of the callback pass the tasklet, as the core would.
@@
identifier lone.lcb, li.F;
expression E;
type T;
@@
- lcb((T)E)
+ lcb(&E->F)

@@
expression li.D;
identifier lone.lcb, li.F;
type T;
@@
(
- tasklet_init(&D->F, lcb, (T)D);
+ INIT_WORK(&D->F, lcb);
|
- tasklet_init(&D.F, lcb, (T)&D);
+ INIT_WORK(&D.F, lcb);
)
