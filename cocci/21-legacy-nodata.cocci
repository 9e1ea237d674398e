// SPDX-License-Identifier: GPL-2.0-only
/// tasklet_init() with constant data, and DECLARE_TASKLET_OLD(): the callback
/// never reads its argument, so it can take the work item and ignore it.
// Confidence: High
// Comments: A callback that reads the constant stays unconverted.
// Options: --no-includes --include-headers

virtual patch

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
