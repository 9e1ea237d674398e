// SPDX-License-Identifier: GPL-2.0+
#include <linux/slab.h>
#include <linux/platform_device.h>
#include "fhci.h"

static int fhci_mem_init(struct fhci_hcd *fhci)
{
	fhci->hc_list = kzalloc(sizeof(*fhci->hc_list), GFP_KERNEL);
	if (!fhci->hc_list)
		return -ENOMEM;
	INIT_LIST_HEAD(&fhci->hc_list->done_list);

	/* initialize work queue to handle done list */
	fhci_tasklet.data = (unsigned long)fhci;
	fhci->process_done_task = &fhci_tasklet;

	return 0;
}

static int fhci_start(struct usb_hcd *hcd)
{
	return fhci_mem_init((struct fhci_hcd *)hcd->hcd_priv);
}

static void fhci_stop(struct usb_hcd *hcd)
{
	struct fhci_hcd *fhci = (struct fhci_hcd *)hcd->hcd_priv;

	kfree(fhci->hc_list);
	fhci->hc_list = NULL;
}

static const struct hc_driver fhci_driver = {
	.hcd_priv_size	= sizeof(struct fhci_hcd),
	.start		= fhci_start,
	.stop		= fhci_stop,
};

static void fhci_remove(struct device *dev)
{
	struct usb_hcd *hcd = dev_get_drvdata(dev);
	struct fhci_hcd *fhci = (struct fhci_hcd *)hcd->hcd_priv;

	usb_remove_hcd(hcd);
	free_irq(fhci->timer->irq, hcd);
	usb_put_hcd(hcd);
}

static void of_fhci_remove(struct platform_device *ofdev)
{
	fhci_remove(&ofdev->dev);
}

static struct platform_driver of_fhci_driver = {
	.driver		= {
		.name	= "fsl,usb-fhci",
	},
	.remove		= of_fhci_remove,
};
module_platform_driver(of_fhci_driver);
