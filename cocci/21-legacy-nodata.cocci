// SPDX-License-Identifier: GPL-2.0-only
/// tasklet_init() with constant data, and DECLARE_TASKLET_OLD(): the callback
/// never reads its argument, so it can take the work item and ignore it; a
/// direct call of it with a constant passes NULL.
// Confidence: High
// Comments: A callback that reads the constant stays unconverted.
// Options: --no-includes --include-headers

virtual patch
virtual report
virtual facts

@const_data_init depends on patch@
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

@cb_ignores_data depends on patch@
identifier const_data_init.cb, d;
@@
void cb(unsigned long d)
{
  ... when != d
}

@depends on patch && cb_ignores_data@
identifier const_data_init.cb, cb_ignores_data.d;
@@
void cb(
- unsigned long d
+ struct work_struct *work
 )
{
  ...
}

@depends on patch && cb_ignores_data@
identifier const_data_init.cb;
identifier d;
@@
void cb(
- unsigned long d
+ struct work_struct *work
 );

@depends on patch && cb_ignores_data@
identifier const_data_init.cb;
@@
void cb(
- unsigned long
+ struct work_struct *work
 );

@depends on patch && cb_ignores_data@
identifier const_data_init.cb;
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

// A direct call of the callback with a constant (a poll thread doing the
// tasklet's work itself: s390 ap_bus's ap_tasklet_fn(0)) passes NULL to the
// pointer it now takes, not a plain integer (sparse: "Using plain integer
// as NULL pointer"); the callback never reads it either way.
@depends on patch && cb_ignores_data@
identifier const_data_init.cb;
constant K;
@@
 cb(
- K
+ NULL
 )

// Report mode (make coccicheck MODE=report, run alone): each place MODE=patch
// would change, and why. make convert runs every mode at once with -D facts,
// so these rules do not run there (!facts): its output is unchanged.

@report_const_data depends on report && !facts@
identifier cb;
expression E;
constant K;
declarer name DECLARE_TASKLET_OLD;
identifier n;
position p;
@@
(
 tasklet_init@p(E, cb, K);
|
 DECLARE_TASKLET_OLD@p(n, cb);
)

@report_cb_ignores_data depends on report && !facts@
identifier report_const_data.cb, d;
@@
void cb(unsigned long d)
{
  ... when != d
}

@script:python depends on report && !facts && report_cb_ignores_data@
p << report_const_data.p;
@@
coccilib.report.print_report(p[0], "tasklet_init() with constant data or DECLARE_TASKLET_OLD(), whose callback never reads its argument: MODE=patch writes INIT_WORK() or DECLARE_WORK() and the callback takes the work item")
