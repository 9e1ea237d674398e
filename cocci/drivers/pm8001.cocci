/// pm8001: tasklet[i] of struct pm8001_hba_info is always paired with
/// irq_vector[i], the struct isr_param that pm8001_init_tasklet() passes as
/// its data (index 0 for INTx, i for each MSI-X vector), and both arrays
/// have PM8001_MAX_MSIX_VEC entries. The tasklet moves into struct
/// isr_param, so pm8001_ha->tasklet[i] becomes pm8001_ha->irq_vector[i].tasklet:
/// the same item for the same vector, now inside the object its callback
/// is given, which from_work() can find. The vectors are embedded in
/// pm8001_hba_info, as the tasklets were.
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4. A per-driver patch: it
//  rewrites one tasklet form into another, which the generic rules convert.
// Files: drivers/scsi/pm8001/pm8001_init.c drivers/scsi/pm8001/pm8001_sas.h
// Options: --no-includes --include-headers

virtual patch

@per_vector depends on patch@
struct pm8001_hba_info *H;
expression I;
@@
- H->tasklet[I]
+ H->irq_vector[I].tasklet

@drop_array depends on patch@
identifier tl = tasklet;
@@
struct pm8001_hba_info {
  ...
- struct tasklet_struct tl[PM8001_MAX_MSIX_VEC];
  ...
};

@add_member depends on patch@
identifier irq_id;
@@
struct isr_param {
  ...
  u32 irq_id;
+ struct tasklet_struct tasklet;
};
