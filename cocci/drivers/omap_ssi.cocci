// SPDX-License-Identifier: GPL-2.0-only
/// omap_ssi: ssi_gdd_tasklet() is given the struct hsi_controller as its
/// data and finds its struct omap_ssi_controller, the object that holds
/// the tasklet, with hsi_controller_drvdata(). The controller is also
/// reachable from that object: ssi_add_controller() sets omap_ssi->dev to
/// &ssi->device, before it sets the tasklet up, and nothing writes
/// omap_ssi->dev again (ssi_clk_event() already finds the controller as
/// to_hsi_controller(omap_ssi->dev)). So the tasklet is given its own
/// struct omap_ssi_controller, and the callback finds the controller from
/// it: the same two pointers, and the callback needs no data of its own.
// Confidence: High
// Comments: Read on Linux 6.12.118 and 7.3.4. A per-driver patch: it
//  rewrites one tasklet form into another, which the generic rules convert
//  (the data is then the container: from_work()). Both rules must match,
//  or the file is left as it was.
// Files: drivers/hsi/controllers/omap_ssi_core.c
// Options: --no-includes --include-headers

virtual patch

@add depends on patch@
identifier fn = ssi_add_controller;
identifier ssi, os, g = dev, dv = device;
identifier t = gdd_tasklet, cb = ssi_gdd_tasklet;
@@
fn(struct hsi_controller *ssi, ...)
{
  ...
  os->g = &ssi->dv;
  ...
  tasklet_init(&os->t, cb,
-	(unsigned long)ssi
+	(unsigned long)os
  );
  ...
}

@callback depends on patch && add@
identifier add.cb, d, ssi, os;
@@
cb(unsigned long d)
{
- struct hsi_controller *ssi = (struct hsi_controller *)d;
- struct omap_ssi_controller *os = hsi_controller_drvdata(ssi);
+ struct omap_ssi_controller *os = (struct omap_ssi_controller *)d;
+ struct hsi_controller *ssi = to_hsi_controller(os->dev);
  ...
}
