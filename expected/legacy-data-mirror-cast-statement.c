// SPDX-License-Identifier: GPL-2.0
/*
 * A fake bus bridge: the probe stores the bus bridge in the driver's
 * private object, which holds the tasklet, just before tasklet_init()
 * gives the tasklet that bridge. The callback reads its data once, in an
 * assignment after its declarations: that cast becomes the member the
 * bridge was stored in, with no unsigned long on the way.
 */
#include <linux/interrupt.h>
#include <linux/slab.h>

struct bus_bridge {
	void *driver_priv;
};

struct fake_driver {
	struct bus_bridge *parent;
	struct work_struct int_tasklet;
	int int_level;
};

static void fake_virq_tasklet(struct work_struct *work)
{
	struct bus_bridge *fake_bridge;
	struct fake_driver *bridge;

	fake_bridge = container_of(work, struct fake_driver, int_tasklet)->parent;
	bridge = fake_bridge->driver_priv;

	bus_irq_handler(fake_bridge, bridge->int_level);
}

static int fake_irq_generate(struct bus_bridge *fake_bridge, int level)
{
	struct fake_driver *bridge = fake_bridge->driver_priv;

	bridge->int_level = level;
	queue_work(system_bh_wq, &bridge->int_tasklet);
	return 0;
}

static int fake_init(struct bus_bridge *fake_bridge)
{
	struct fake_driver *fake_device;

	fake_device = kzalloc(sizeof(*fake_device), GFP_KERNEL);
	if (!fake_device)
		return -ENOMEM;

	fake_bridge->driver_priv = fake_device;
	fake_device->parent = fake_bridge;
	INIT_WORK(&fake_device->int_tasklet, fake_virq_tasklet);
	return 0;
}

static void fake_exit(struct bus_bridge *fake_bridge)
{
	struct fake_driver *bridge = fake_bridge->driver_priv;

	flush_work(&bridge->int_tasklet);
	kfree(bridge);
}
