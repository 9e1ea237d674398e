/// pmcraid: isr_tasklet[i] of struct pmcraid_instance is always paired with
/// hrrq_vector[i], the struct pmcraid_isr_param that pmcraid_init_tasklets()
/// passes as its data, and both arrays have PMCRAID_NUM_MSIX_VECTORS
/// entries. The tasklet moves into struct pmcraid_isr_param, so
/// pinstance->isr_tasklet[i] becomes pinstance->hrrq_vector[i].isr_tasklet:
/// the same item for the same HRRQ, now inside the object its callback is
/// given, which from_work() can find. The vectors are embedded in
/// pmcraid_instance, as the tasklets were.
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4. A per-driver patch: it
//  rewrites one tasklet form into another, which the generic rules convert.
// Files: drivers/scsi/pmcraid.c drivers/scsi/pmcraid.h
// Options: --no-includes --include-headers

virtual patch

@per_vector depends on patch@
struct pmcraid_instance *P;
expression I;
@@
- P->isr_tasklet[I]
+ P->hrrq_vector[I].isr_tasklet

@drop_array depends on patch@
identifier tl = isr_tasklet;
@@
struct pmcraid_instance {
  ...
- struct tasklet_struct tl[PMCRAID_NUM_MSIX_VECTORS];
  ...
};

// First in the struct: spatch would give a new last member the comment
// of the line before it.
@add_member depends on patch@
identifier drv_inst;
@@
struct pmcraid_isr_param {
+ struct tasklet_struct isr_tasklet;
  struct pmcraid_instance *drv_inst;
  ...
};
