// SPDX-License-Identifier: GPL-2.0
/*
 * A kill in the registered .remove of a memstick host whose callback hands
 * the queued requests on with memstick_next_req(): the pending run is the
 * one that would fail or issue the request a card driver waits for, so
 * the teardown keeps it: flush_work(), and no cancel_work_sync(), since
 * the interrupt that queues it is freed before the kill.
 */
#include <linux/interrupt.h>
#include <linux/memstick.h>
#include <linux/platform_device.h>

struct msh_host {
	struct memstick_host *msh;
	struct memstick_request *req;
	struct work_struct notify;
	spinlock_t lock;
	int irq;
	int eject;
};

static void msh_req_tasklet(struct work_struct *work)
{
	struct memstick_host *msh =
		container_of(work, struct msh_host, notify)->msh;
	struct msh_host *host = memstick_priv(msh);
	unsigned long flags;
	int rc;

	spin_lock_irqsave(&host->lock, flags);
	if (!host->req) {
		do {
			rc = memstick_next_req(msh, &host->req);
			if (!rc && host->eject)
				host->req->error = -ETIME;
		} while (!rc && host->eject);
	}
	spin_unlock_irqrestore(&host->lock, flags);
}

static irqreturn_t msh_irq(int irq, void *dev_id)
{
	struct msh_host *host = dev_id;

	queue_work(system_bh_wq, &host->notify);
	return IRQ_HANDLED;
}

static void msh_submit_req(struct memstick_host *msh)
{
	struct msh_host *host = memstick_priv(msh);

	enable_irq(host->irq);
}

static int msh_probe(struct platform_device *pdev)
{
	struct memstick_host *msh;
	struct msh_host *host;

	msh = memstick_alloc_host(sizeof(*host), &pdev->dev);
	if (!msh)
		return -ENOMEM;
	host = memstick_priv(msh);
	host->msh = msh;
	spin_lock_init(&host->lock);
	INIT_WORK(&host->notify, msh_req_tasklet);
	msh->request = msh_submit_req;
	platform_set_drvdata(pdev, msh);
	host->irq = platform_get_irq(pdev, 0);
	if (request_irq(host->irq, msh_irq, 0, "msh", host))
		return -EBUSY;
	return memstick_add_host(msh);
}

static void msh_remove(struct platform_device *pdev)
{
	struct memstick_host *msh = platform_get_drvdata(pdev);
	struct msh_host *host = memstick_priv(msh);

	free_irq(host->irq, host);
	flush_work(&host->notify);
	host->eject = 1;
	memstick_remove_host(msh);
	memstick_free_host(msh);
}

static struct platform_driver msh_driver = {
	.probe = msh_probe,
	.remove = msh_remove,
};
module_platform_driver(msh_driver);
