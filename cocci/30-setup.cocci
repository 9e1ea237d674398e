/// tasklet_setup() becomes INIT_WORK(), from_tasklet() becomes from_work(),
/// DECLARE_TASKLET() becomes DECLARE_WORK(). Both pairs are container_of()
/// of the same field: equivalent. A callback (struct tasklet_struct *t)
/// becomes (struct work_struct *work), the name the workqueue API uses,
/// with its from_tasklet() argument; a function that reads t otherwise,
/// or already names something "work", keeps its name (90-types.cocci
/// still changes the type), since a rename there is not one-for-one.
// Confidence: High
// Options: --no-includes --include-headers --macro-file cocci/parsing-hints.h

@initialize:python@
@@
keep_param = set()

// Functions whose parameter is read outside from_tasklet(), or that name
// "work": p is bound only by those branches, so only they count.
@cbother exists@
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
fn << cbother.fn;
p << cbother.p;
@@
keep_param.add(fn)

@cbdecl exists@
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
fn << cbdecl.fn;
@@
keep_param.add(fn)

// (The constrained name is not "fn": a script constraint on "fn" breaks
// the parsing of later "fn << rule.fn" lines in spatch 1.1.1.)
@@
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
@@
identifier fn, t;
symbol work;
@@
void fn(
- struct tasklet_struct *t
+ struct work_struct *work
 );

@@
expression E, cb;
@@
- tasklet_setup(E, cb)
+ INIT_WORK(E, cb)

// The field may be a path (creq.creq_tasklet): match it as an expression.
@@
expression P, T, F;
@@
- from_tasklet(P, T, F)
+ from_work(P, T, F)

@@
declarer name DECLARE_TASKLET, DECLARE_WORK;
identifier n, cb;
@@
- DECLARE_TASKLET(n, cb);
+ DECLARE_WORK(n, cb);
