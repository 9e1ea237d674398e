// SPDX-License-Identifier: GPL-2.0-only
/// tasklet_setup() becomes INIT_WORK(), from_tasklet() from_work(), and
/// DECLARE_TASKLET() DECLARE_WORK(): both pairs are container_of() of the
/// same field. The callback takes the struct work_struct *work instead.
// Confidence: High
// Comments: A callback (struct tasklet_struct *t) becomes
//  (struct work_struct *work), the name the workqueue API uses, with its
//  from_tasklet() argument; a function that reads t otherwise, or already
//  names something "work", keeps its name (90-types.cocci still changes
//  the type), since a rename there is not one-for-one.
// Options: --no-includes --include-headers

virtual patch
virtual report
virtual facts

@initialize:python@
@@
keep_param = set()

// Functions whose parameter is read outside from_tasklet(), or that name
// "work": p is bound only by those branches, so only they count.
@cb_reads_param depends on patch exists@
identifier fn, t;
expression a, b;
symbol work;
position p;
@@
void fn(struct tasklet_struct *t)
{
  ... when any
(
  from_tasklet(a, t, b)
|
  t@p
|
  work@p
)
  ... when any
}

@script:python@
fn << cb_reads_param.fn;
p << cb_reads_param.p;
@@
keep_param.add(fn)

@cb_names_work depends on patch exists@
identifier fn, t;
expression E;
type T;
symbol work;
@@
void fn(struct tasklet_struct *t)
{
  ... when any
(
  T work;
|
  T work = E;
)
  ... when any
}

@script:python@
fn << cb_names_work.fn;
@@
keep_param.add(fn)

// A callback handed to tasklet_setup() through a cast, (void *)cb or
// (void (*)(struct tasklet_struct *))cb: the callback is rewritten below to
// take the struct work_struct *, work_func_t's type, so INIT_WORK() gets it
// without the cast, which would only hide a mismatch from the compiler.
// Only a callback of this file that takes the struct tasklet_struct * loses
// its cast (matched before patch_cb rewrites that parameter).
@setup_cast_cb depends on patch@
identifier cb, t;
@@
void cb(struct tasklet_struct *t) { ... }

@patch_setup_cast depends on patch@
identifier setup_cast_cb.cb;
expression E;
type T;
@@
- tasklet_setup(E, (T)cb)
+ INIT_WORK(E, cb)

// (The constrained name is not "fn": a script constraint on "fn" breaks
// the parsing of later "fn << rule.fn" lines in spatch 1.1.1.)
@patch_cb depends on patch@
identifier cbfn : script:python () { cbfn not in keep_param };
identifier t;
expression E1, E2;
symbol work;
@@
void cbfn(
- struct tasklet_struct *t
+ struct work_struct *work
 )
{
  <...
- from_tasklet(E1, t, E2)
+ from_tasklet(E1, work, E2)
  ...>
}

// Prototypes: a parameter name there is only documentation.
@patch_cb_proto_param depends on patch@
identifier fn, t;
symbol work;
@@
void fn(
- struct tasklet_struct *t
+ struct work_struct *work
 );

@patch_setup depends on patch@
expression E, cb;
@@
- tasklet_setup(E, cb)
+ INIT_WORK(E, cb)

// The field may be a path (creq.creq_tasklet): match it as an expression.
@patch_from_tasklet depends on patch@
expression P, T, F;
@@
- from_tasklet(P, T, F)
+ from_work(P, T, F)

@patch_declare depends on patch@
declarer name DECLARE_TASKLET, DECLARE_WORK;
identifier n, cb;
@@
- DECLARE_TASKLET(n, cb);
+ DECLARE_WORK(n, cb);

// Report mode (make coccicheck MODE=report, run alone): each place MODE=patch
// would change, and why. make convert runs every mode at once with -D facts,
// so these rules do not run there (!facts): its output is unchanged.

@report_setup depends on report && !facts@
expression E, cb, P, T, F;
position p;
@@
(
 tasklet_setup@p(E, cb)
|
 from_tasklet@p(P, T, F)
)

@script:python depends on report && !facts@
p << report_setup.p;
@@
coccilib.report.print_report(p[0], "tasklet_setup() or from_tasklet(): MODE=patch writes INIT_WORK() or from_work() (container_of() of the same field) and the callback takes the struct work_struct *")

@report_declare depends on report && !facts@
declarer name DECLARE_TASKLET;
identifier n, cb;
position p;
@@
 DECLARE_TASKLET@p(n, cb);

@script:python depends on report && !facts@
p << report_declare.p;
@@
coccilib.report.print_report(p[0], "DECLARE_TASKLET(): MODE=patch writes DECLARE_WORK() (the callback's struct work_struct * is container_of() of the same field)")
