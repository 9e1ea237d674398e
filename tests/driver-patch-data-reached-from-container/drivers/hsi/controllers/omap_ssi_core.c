// SPDX-License-Identifier: GPL-2.0
/*
 * A legacy callback given another object than the one that holds its
 * tasklet, where that object is reachable from the holder (omap_ssi,
 * ccree's fips and tifm_ms shapes): each driver's own patch gives the
 * tasklet its holder and has the callback find the other object from it,
 * so no data field is added.
 */
#include <linux/interrupt.h>
#include <linux/hsi/hsi.h>

struct omap_ssi_controller {
	struct device *dev;
	struct tasklet_struct gdd_tasklet;
	int gdd_irq;
};

static void ssi_gdd_tasklet(unsigned long dev)
{
	struct hsi_controller *ssi = (struct hsi_controller *)dev;
	struct omap_ssi_controller *omap_ssi = hsi_controller_drvdata(ssi);

	omap_ssi->gdd_irq = ssi->id;
}

static int ssi_add_controller(struct hsi_controller *ssi, struct platform_device *pd)
{
	struct omap_ssi_controller *omap_ssi;

	omap_ssi = devm_kzalloc(&ssi->device, sizeof(*omap_ssi), GFP_KERNEL);
	if (!omap_ssi)
		return -ENOMEM;
	hsi_controller_set_drvdata(ssi, omap_ssi);
	omap_ssi->dev = &ssi->device;
	tasklet_init(&omap_ssi->gdd_tasklet, ssi_gdd_tasklet,
							(unsigned long)ssi);
	tasklet_hi_schedule(&omap_ssi->gdd_tasklet);
	return 0;
}
