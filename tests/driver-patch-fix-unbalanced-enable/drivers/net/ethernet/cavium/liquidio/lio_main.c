// SPDX-License-Identifier: GPL-2.0
/* A device whose interfaces disable the DROQ bottom half while up, whose
 * interface teardown enables it once too many, and whose open error exit
 * does not enable it again.
 */
#include <linux/interrupt.h>
#include <linux/netdevice.h>
#include "octeon_main.h"

struct octeon_device {
	atomic_t status;
	struct pci_dev *pci_dev;
	void *priv;
	struct {
		int napi_enabled;
	} props;
	int running;
};

#define OCT_DEV_BEGIN_STATE	0
#define OCT_DEV_PCI_ENABLE_DONE	1

int oct_pci_setup(struct octeon_device *oct);
int oct_queues_setup(struct octeon_device *oct);
int oct_process_queues(struct octeon_device *oct);
int oct_rx_start(struct octeon_device *oct);
int oct_packets_left(struct octeon_device *oct);
void oct_stop_io(struct octeon_device *oct);

static void octeon_droq_bh(struct tasklet_struct *t)
{
	struct octeon_device_priv *oct_priv = from_tasklet(oct_priv, t,
							  droq_tasklet);

	if (oct_process_queues(oct_priv->dev))
		tasklet_schedule(&oct_priv->droq_tasklet);
}

static void octeon_destroy_resources(struct octeon_device *oct)
{
	struct octeon_device_priv *oct_priv = oct->priv;

	if (atomic_read(&oct->status) != OCT_DEV_BEGIN_STATE) {
		oct_stop_io(oct);
		if (oct_packets_left(oct))
			tasklet_schedule(&oct_priv->droq_tasklet);
	}

	tasklet_kill(&oct_priv->droq_tasklet);
}

static int liquidio_stop(struct octeon_device *oct)
{
	struct octeon_device_priv *oct_priv = oct->priv;

	if (oct->props.napi_enabled == 1) {
		oct->props.napi_enabled = 0;
		tasklet_enable(&oct_priv->droq_tasklet);
	}
	return 0;
}

static int liquidio_open(struct octeon_device *oct)
{
	struct octeon_device_priv *oct_priv = oct->priv;
	int ret;

	if (oct->props.napi_enabled == 0) {
		tasklet_disable(&oct_priv->droq_tasklet);
		oct->props.napi_enabled = 1;
	}

	ret = oct_rx_start(oct);
	if (ret)
		goto err_rx;
	return 0;

err_rx:
	if (oct->props.napi_enabled == 1) {
		oct->props.napi_enabled = 0;
	}
	return ret;
}

static void liquidio_destroy_nic_device(struct octeon_device *oct)
{
	struct octeon_device_priv *oct_priv = oct->priv;

	if (oct->running)
		liquidio_stop(oct);

	if (oct->props.napi_enabled == 1) {
		oct->props.napi_enabled = 0;
	}

	tasklet_enable(&oct_priv->droq_tasklet);
}

static int octeon_device_init(struct octeon_device *octeon_dev)
{
	struct octeon_device_priv *oct_priv = octeon_dev->priv;

	atomic_set(&octeon_dev->status, OCT_DEV_BEGIN_STATE);

	if (oct_pci_setup(octeon_dev))
		return 1;
	atomic_set(&octeon_dev->status, OCT_DEV_PCI_ENABLE_DONE);

	if (oct_queues_setup(octeon_dev))
		return 1;

	dev_dbg(&octeon_dev->pci_dev->dev, "Initializing droq tasklet\n");
	tasklet_setup(&oct_priv->droq_tasklet, octeon_droq_bh);

	return 0;
}

int liquidio_probe(struct octeon_device *oct)
{
	if (octeon_device_init(oct)) {
		octeon_destroy_resources(oct);
		return -ENOMEM;
	}
	return liquidio_open(oct);
}

void liquidio_remove(struct octeon_device *oct)
{
	liquidio_destroy_nic_device(oct);
	octeon_destroy_resources(oct);
}

static struct pci_driver liquidio_pci_driver = {
	.probe = liquidio_probe,
	.remove = liquidio_remove,
};
