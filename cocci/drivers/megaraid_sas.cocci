// SPDX-License-Identifier: GPL-2.0-only
/// megaraid_sas: isr_tasklet's callback is read from the controller
/// family's template, instance->instancet->tasklet (megasas_complete_cmd_dpc()
/// for MFI controllers, megasas_complete_cmd_dpc_fusion() for Fusion ones),
/// and its data is the instance that holds it. megasas_init_fw() sets
/// instance->instancet once per probe, before its own tasklet_init(), and
/// nothing changes it afterwards (megasas_resume() reuses it), so a callback
/// megasas_isr_work() that reads the template when it runs and calls it with
/// the instance calls the same function with the same value. The work item
/// then has one fixed function, which INIT_WORK() needs.
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4. A per-driver patch: it
//  rewrites one tasklet form into another, which the generic rules convert.
// Files: drivers/scsi/megaraid/megaraid_sas_base.c
// Options: --no-includes --include-headers

virtual patch

@template_init depends on patch@
expression I;
@@
- tasklet_init(&I->isr_tasklet, I->instancet->tasklet, (unsigned long)I);
+ tasklet_setup(&I->isr_tasklet, megasas_isr_work);

@add_isr_work depends on patch && template_init@
identifier init_fw = megasas_init_fw;
@@
+ static void megasas_isr_work(struct tasklet_struct *t)
+ {
+	struct megasas_instance *instance = from_tasklet(instance, t, isr_tasklet);
+
+	instance->instancet->tasklet((unsigned long)instance);
+ }
+
  init_fw(...) { ... }
