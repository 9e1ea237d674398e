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
	struct tasklet_struct int_tasklet;
	int int_level;
};

static void fake_virq_tasklet(unsigned long data)
{
	struct bus_bridge *fake_bridge;
	struct fake_driver *bridge;

	fake_bridge = (struct bus_bridge *)data;
	bridge = fake_bridge->driver_priv;

	bus_irq_handler(fake_bridge, bridge->int_level);
}

static int fake_irq_generate(struct bus_bridge *fake_bridge, int level)
{
	struct fake_driver *bridge = fake_bridge->driver_priv;

	bridge->int_level = level;
	tasklet_schedule(&bridge->int_tasklet);
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
	tasklet_init(&fake_device->int_tasklet, fake_virq_tasklet,
		     (unsigned long)fake_bridge);
	return 0;
}

static void fake_exit(struct bus_bridge *fake_bridge)
{
	struct fake_driver *bridge = fake_bridge->driver_priv;

	tasklet_kill(&bridge->int_tasklet);
	kfree(bridge);
}
