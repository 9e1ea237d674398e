// SPDX-License-Identifier: GPL-2.0-only
/// ccp: ccp_cmd_queue_thread() keeps a tasklet and the struct
/// ccp_tasklet_data it is given on its own stack. For each command it stores
/// the command there, schedules the tasklet and sleeps in
/// wait_for_completion() until ccp_do_cmd_complete() has run the command's
/// callback and called complete(), so no run is pending when it takes the
/// next command or returns. One such thread serves each struct
/// ccp_cmd_queue, which is its argument: ccp_init() and ccp5_init() start it
/// once for each queue of a device, and ccp_destroy(), ccp5_destroy() and
/// their init error paths stop it with kthread_stop(). The struct, with the
/// tasklet in it, moves to ccp-dev.h and into the queue (cmd_q->tdata): the
/// same item, used by that one thread only and set up when the thread
/// starts, as before, now inside the struct its callback is given, which
/// the callback finds from the item itself. The queue is part of struct
/// ccp_device, allocated with devm_kzalloc() in ccp_alloc_struct(), and
/// outlives the thread.
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4. A per-driver patch: it
//  rewrites one tasklet form into another, which the generic rules convert.
//  The tasklet leaves the stack because a work item on the stack needs
//  INIT_WORK_ONSTACK() and destroy_work_on_stack(), which no tasklet call
//  maps to.
// Files: drivers/crypto/ccp/ccp-dev.c drivers/crypto/ccp/ccp-dev.h
// Options: --no-includes --include-headers

virtual patch

// ccp-dev.c: the struct moves to ccp-dev.h.
@drop_struct depends on patch@
identifier s = ccp_tasklet_data;
@@
- struct s {
-	...
- };

// ccp-dev.h: the struct, with the tasklet, before the queue that holds it.
@add_struct depends on patch@
identifier q = ccp_cmd_queue;
@@
+ struct ccp_tasklet_data {
+	struct completion completion;
+	struct ccp_cmd *cmd;
+	struct tasklet_struct tasklet;
+ };
+
  struct q {
	...
  };

@add_member depends on patch@
identifier q = ccp_cmd_queue, s = suspended;
@@
  struct q {
	...
	unsigned int s;
+	struct ccp_tasklet_data tdata;
	...
  };

// The thread uses its queue's struct instead of the one on its stack.
@thread depends on patch@
identifier fn = ccp_cmd_queue_thread;
identifier td, tl, cq, data, cb;
@@
  fn(void *data)
  {
	struct ccp_cmd_queue *cq = ...;
	...
-	struct ccp_tasklet_data td;
-	struct tasklet_struct tl;
+	struct ccp_tasklet_data *td = &cq->tdata;
	<...
(
-	tasklet_init(&tl, cb, (unsigned long)&td);
+	tasklet_setup(&td->tasklet, cb);
|
-	tasklet_schedule(&tl);
+	tasklet_schedule(&td->tasklet);
|
-	td.cmd
+	td->cmd
|
-	&td.completion
+	&td->completion
)
	...>
  }

@callback depends on patch@
identifier fn = ccp_do_cmd_complete;
identifier data, td;
@@
- fn(unsigned long data)
+ fn(struct tasklet_struct *t)
  {
-	struct ccp_tasklet_data *td = (struct ccp_tasklet_data *)data;
+	struct ccp_tasklet_data *td = from_tasklet(td, t, tasklet);
	...
  }
