/// tasklet_setup() becomes INIT_WORK(), from_tasklet() becomes from_work(),
/// DECLARE_TASKLET() becomes DECLARE_WORK(). The callback keeps its
/// parameter name; its type follows from 90-types.cocci.
/// Both pairs are container_of() of the same field: equivalent.
// Confidence: High
// Options: --no-includes --include-headers

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
