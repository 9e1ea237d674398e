// SPDX-License-Identifier: GPL-2.0-only
/// ccree: fips_dsr() is given the struct cc_drvdata as its data, which
/// cc_fips_init() also stores in fips_h->drvdata, the struct
/// cc_fips_handle that holds the tasklet, right after setting the tasklet
/// up; nothing writes fips_h->drvdata again. The store now comes just
/// before the set-up, so the pointer is in place before the tasklet can
/// run, and the tasklet is given its own struct cc_fips_handle, from which
/// fips_dsr() reads drvdata: the same pointer, and the callback needs no
/// data of its own.
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4. A per-driver patch: it
//  rewrites one tasklet form into another, which the generic rules convert
//  (the data is then the container: from_work()). Both rules must match,
//  or the file is left as it was.
// Files: drivers/crypto/ccree/cc_fips.c
// Options: --no-includes --include-headers

virtual patch

@init depends on patch@
identifier fn = cc_fips_init;
identifier fh, p, t = tasklet, g = drvdata, cb = fips_dsr;
@@
fn(...)
{
  ...
+ fh->g = p;
  tasklet_init(&fh->t, cb,
-	(unsigned long)p
+	(unsigned long)fh
  );
- fh->g = p;
  ...
}

@callback depends on patch && init@
identifier init.cb, d, dd;
@@
cb(unsigned long d)
{
- struct cc_drvdata *dd = (struct cc_drvdata *)d;
+ struct cc_fips_handle *fips_h = (struct cc_fips_handle *)d;
+ struct cc_drvdata *dd = fips_h->drvdata;
  ...
}
