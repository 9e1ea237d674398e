/// tasklet_init() with constant data, and DECLARE_TASKLET_OLD(): the callback
/// never reads its argument, so it can take the work item and ignore it.
/// A callback that reads the constant stays unconverted.
// Confidence: High
// Options: --no-includes --include-headers --macro-file cocci/parsing-hints.h

@ln@
identifier cb;
expression E;
constant K;
declarer name DECLARE_TASKLET_OLD;
identifier n;
@@
(
tasklet_init(E, cb, K);
|
DECLARE_TASKLET_OLD(n, cb);
)

@lncb@
identifier ln.cb, d;
@@
void cb(unsigned long d)
{
  ... when != d
}

@depends on lncb@
identifier ln.cb, lncb.d;
@@
void cb(
- unsigned long d
+ struct work_struct *work
 )
{
  ...
}

@depends on lncb@
identifier ln.cb;
identifier d;
@@
void cb(
- unsigned long d
+ struct work_struct *work
 );

@depends on lncb@
identifier ln.cb;
@@
void cb(
- unsigned long
+ struct work_struct *work
 );

@depends on lncb@
identifier ln.cb;
expression E;
constant K;
declarer name DECLARE_TASKLET_OLD, DECLARE_WORK;
identifier n;
@@
(
- tasklet_init(E, cb, K);
+ INIT_WORK(E, cb);
|
- DECLARE_TASKLET_OLD(n, cb);
+ DECLARE_WORK(n, cb);
)
