// SPDX-License-Identifier: GPL-2.0-only
/// fhci: fhci_tasklet is one global tasklet for every controller: each
/// fhci_mem_init() (from fhci_start()) points its data at its own struct
/// fhci_hcd, so a second controller would take over the first one's, and
/// nothing ever kills it. It moves into struct fhci_hcd as
/// process_done_task, which was a pointer to it, set up where the data and
/// the pointer were set, with the same callback, which finds that struct
/// fhci_hcd from the item it runs for. Its only scheduler is
/// fhci_transfer_confirm_callback(), reached from the USB and frame timer
/// interrupts, from hub_control (port disable) and from fhci_stop(). None
/// can run before that point: the USB events stay masked until
/// fhci_usb_enable() at the end of fhci_start(), the frame timer is armed
/// only from the USB interrupt and its own handler, and the root hub is
/// not registered yet. If usb_add_hcd() fails after fhci_start(), the root
/// hub never registered, so no device was enumerated and no URB reached the
/// controller: of_fhci_probe() frees the item unqueued.
/// fhci_remove() kills it after usb_remove_hcd() and
/// free_irq() of the timer interrupt, before usb_put_hcd() frees struct
/// fhci_hcd with the item in it. By then nothing can schedule it:
/// usb_remove_hcd() has disconnected the root hub and every device (every
/// URB given back), stopped the controller with fhci_stop() and freed the
/// USB interrupt, and free_irq() of both interrupts waits for a running
/// handler. A run still pending there would find the hc_list that
/// fhci_stop() freed, as the global tasklet's run would have later.
/// fhci_transfer_confirm_callback() scheduled it only if ->state was 0. A
/// pending tasklet had TASKLET_STATE_SCHED set, and queueing an item that is
/// pending does nothing either. The test differs only while the callback
/// runs (TASKLET_STATE_RUN, SMP and PREEMPT_RT): there it dropped the
/// schedule, so a TD moved to the done list after the run had emptied it
/// under fhci->lock waited for the next completion. Queueing the item now
/// runs it once more instead. A run that finds the done list empty is
/// harmless: it disables and re-enables the two interrupts and takes and
/// releases fhci->lock, with no other effect. The callback, named in
/// fhci-hcd.c now, is no longer static: process_done_list() becomes
/// fhci_process_done_list(), so the global symbol carries the driver's
/// prefix (ohci-q.c has a process_done_list() of its own).
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4. A per-driver patch: it
//  rewrites one tasklet form into another, which the generic rules convert.
//  Each file's rules must all match, or that file is left as it was.
// Files: drivers/usb/host/fhci.h drivers/usb/host/fhci-hcd.c drivers/usb/host/fhci-sched.c
// Mapping: DECLARE_TASKLET_OLD() -> a work item in struct fhci_hcd
// Options: --no-includes --include-headers

virtual patch

// fhci.h

@h_extern depends on patch@
identifier g = fhci_tasklet;
@@
  extern struct tasklet_struct g;

@h_member depends on patch && h_extern@
identifier m = process_done_task;
@@
struct fhci_hcd {
  ...
- struct tasklet_struct *m;
+ struct tasklet_struct m;
  ...
};

@h_proto depends on patch && h_member@
identifier h_extern.g;
@@
- extern struct tasklet_struct g;
+ void fhci_process_done_list(unsigned long data);

// fhci-hcd.c

@c_where depends on patch@
identifier rm = fhci_remove;
identifier f, t, irq;
expression H;
@@
rm(...)
{
  ...
  usb_remove_hcd(H);
  free_irq(f->t->irq, H);
  ...
}

@c_init depends on patch && c_where@
identifier fn = fhci_mem_init;
identifier g = fhci_tasklet, m = process_done_task;
expression F;
@@
fn(...)
{
  ...
- g.data = (unsigned long)F;
- F->m = &g;
+ tasklet_init(&F->m, fhci_process_done_list, (unsigned long)F);
  ...
}

@c_kill depends on patch && c_init@
identifier c_where.rm, c_where.f, c_where.t, c_where.irq;
identifier c_init.m;
expression c_where.H;
@@
rm(...)
{
  ...
  usb_remove_hcd(H);
  free_irq(f->t->irq, H);
+ tasklet_kill(&f->m);
  ...
}

// fhci-sched.c

@s_decl depends on patch@
declarer name DECLARE_TASKLET_OLD;
identifier g = fhci_tasklet, cb = process_done_list;
@@
  DECLARE_TASKLET_OLD(g, cb);

@s_static depends on patch && s_decl@
identifier s_decl.cb;
@@
  static void cb(...) { ... }

@s_sched depends on patch && s_static@
identifier m = process_done_task;
identifier st = state;
expression F;
@@
- if (!F->m->st)
-	tasklet_schedule(F->m);
+ tasklet_schedule(&F->m);

@s_global depends on patch && s_sched@
identifier s_decl.cb;
identifier d;
@@
- static void cb(unsigned long d)
+ void fhci_process_done_list(unsigned long d)
  { ... }

@s_nodecl depends on patch && s_global@
declarer name DECLARE_TASKLET_OLD;
identifier s_decl.g, s_decl.cb;
@@
- DECLARE_TASKLET_OLD(g, cb);
