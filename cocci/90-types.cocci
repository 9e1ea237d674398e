/// struct tasklet_struct becomes struct work_struct everywhere a type is
/// written: fields, variables, arrays, pointers, parameters, sizeof.
/// Runs last, so the rules before it still see the tasklet types.
// Confidence: High
// Options: --no-includes --include-headers --macro-file cocci/parsing-hints.h

@@
@@
- struct tasklet_struct
+ struct work_struct
