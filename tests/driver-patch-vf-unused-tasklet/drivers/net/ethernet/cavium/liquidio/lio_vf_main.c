// SPDX-License-Identifier: GPL-2.0
/* The VF: it disables, enables, schedules and kills the DROQ bottom half,
 * but never sets it up.
 */
#include <linux/interrupt.h>
#include "octeon_device.h"
#include "octeon_main.h"

static int lio_wait_for_oq_pkts(struct octeon_device *oct)
{
	struct octeon_device_priv *oct_priv = oct->priv;
	int retry = 100, pkt_cnt, pending_pkts;

	do {
		pending_pkts = 0;
		pkt_cnt = oct_packets_seen(oct);
		if (pkt_cnt > 0) {
			pending_pkts += pkt_cnt;
			tasklet_schedule(&oct_priv->droq_tasklet);
		}
		schedule_timeout_uninterruptible(1);
	} while (retry-- && pending_pkts);

	return 0;
}

static void octeon_destroy_resources(struct octeon_device *oct)
{
	struct octeon_device_priv *oct_priv = oct->priv;
	int left;

	left = lio_wait_for_oq_pkts(oct);
	if (left)
		pr_err("OQ had pending packets\n");

	tasklet_kill(&oct_priv->droq_tasklet);
}

static int liquidio_stop(struct octeon_device *oct)
{
	struct octeon_device_priv *oct_priv = oct->priv;

	if (oct->napi_enabled == 1) {
		oct->napi_enabled = 0;

		tasklet_enable(&oct_priv->droq_tasklet);
	}
	return 0;
}

static int liquidio_open(struct octeon_device *oct)
{
	struct octeon_device_priv *oct_priv = oct->priv;

	if (!oct->napi_enabled) {
		tasklet_disable(&oct_priv->droq_tasklet);

		oct->napi_enabled = 1;
	}
	return 0;
}

static void liquidio_destroy_nic_device(struct octeon_device *oct)
{
	struct octeon_device_priv *oct_priv = oct->priv;

	if (oct->running)
		liquidio_stop(oct);

	tasklet_enable(&oct_priv->droq_tasklet);
}

int liquidio_vf_probe(struct octeon_device *oct)
{
	return liquidio_open(oct);
}

void liquidio_vf_remove(struct octeon_device *oct)
{
	liquidio_destroy_nic_device(oct);
	octeon_destroy_resources(oct);
}

static struct pci_driver liquidio_vf_pci_driver = {
	.probe = liquidio_vf_probe,
	.remove = liquidio_vf_remove,
};
