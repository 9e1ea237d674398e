// SPDX-License-Identifier: GPL-2.0-only
/// iosm: ipc_task->ipc_tasklet was a pointer to a tasklet that
/// ipc_task_init() allocated with kzalloc and ipc_task_deinit() freed right
/// after killing it; struct ipc_task itself is allocated with kzalloc before
/// ipc_task_init() and freed after ipc_task_deinit() (ipc_imem_init(),
/// ipc_imem_cleanup()). The work item is embedded in struct ipc_task
/// instead: zeroed, and alive over the same span, with no allocation that
/// can fail. Its data, &ipc_task->ipc_queue, is then a member of the object
/// that holds it. ipc_task_queue_add_task() queues
/// &ipc_imem->ipc_task->ipc_tasklet directly, without the local copy of the
/// pointer (ipc_imem->ipc_task is set once, in ipc_imem_init()).
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4. A per-driver patch: it
//  rewrites one tasklet form into another, which the generic rules convert.
// Files: drivers/net/wwan/iosm/iosm_ipc_task_queue.c drivers/net/wwan/iosm/iosm_ipc_task_queue.h
// Options: --no-includes --include-headers

virtual patch

@no_alloc depends on patch@
expression T, A;
@@
- T->ipc_tasklet = A;
- if (!T->ipc_tasklet)
-	return -ENOMEM;

@no_local depends on patch exists@
identifier l = ipc_tasklet;
expression E;
@@
- struct tasklet_struct *l = E->ipc_tasklet;
  ...
- tasklet_schedule(l);
+ tasklet_schedule(E->ipc_tasklet);

@no_free depends on patch@
expression T;
@@
- kfree(T->ipc_tasklet);

@embedded depends on patch@
expression T;
@@
- T->ipc_tasklet
+ &T->ipc_tasklet

@embed depends on patch@
identifier t = ipc_tasklet;
@@
struct ipc_task {
  ...
- struct tasklet_struct *t;
+ struct tasklet_struct t;
  ...
};

// The data is the address of the queue member itself, not the local copy
// of it, so that the work function can find it from the work item.
@member_data depends on patch@
identifier q;
expression T;
@@
  struct ipc_task_queue *q = &T->ipc_queue;
  ...
  tasklet_init(&T->ipc_tasklet, ipc_task_queue_handler,
-     (unsigned long)q
+     (unsigned long)&T->ipc_queue
  );
