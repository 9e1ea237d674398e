// SPDX-License-Identifier: GPL-2.0
/* The PF: it sets the DROQ bottom half up and kills it on .remove. */
#include <linux/interrupt.h>
#include "octeon_device.h"
#include "octeon_main.h"

static void octeon_droq_bh(struct tasklet_struct *t)
{
	struct octeon_device_priv *oct_priv = from_tasklet(oct_priv, t,
							  droq_tasklet);

	if (oct_process_queues(oct_priv->dev))
		tasklet_schedule(&oct_priv->droq_tasklet);
}

void pf_setup(struct octeon_device *oct)
{
	struct octeon_device_priv *oct_priv = oct->priv;

	tasklet_setup(&oct_priv->droq_tasklet, octeon_droq_bh);
}

static void pf_teardown(struct octeon_device *oct)
{
	struct octeon_device_priv *oct_priv = oct->priv;

	tasklet_kill(&oct_priv->droq_tasklet);
}

static void liquidio_remove(struct pci_dev *pdev)
{
	pf_teardown(pci_get_drvdata(pdev));
}

static struct pci_driver liquidio_pci_driver = {
	.remove = liquidio_remove,
};
