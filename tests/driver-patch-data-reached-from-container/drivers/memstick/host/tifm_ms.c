// SPDX-License-Identifier: GPL-2.0
#include <linux/interrupt.h>
#include <linux/memstick.h>
#include <linux/tifm.h>

struct tifm_ms {
	struct tifm_dev *dev;
	struct tasklet_struct notify;
	int eject;
};

static void tifm_ms_req_tasklet(unsigned long data)
{
	struct memstick_host *msh = (struct memstick_host *)data;
	struct tifm_ms *host = memstick_priv(msh);

	host->eject = msh->caps;
}

static void tifm_ms_submit_req(struct memstick_host *msh)
{
	struct tifm_ms *host = memstick_priv(msh);

	tasklet_schedule(&host->notify);
}

static int tifm_ms_probe(struct tifm_dev *sock)
{
	struct memstick_host *msh;
	struct tifm_ms *host;

	msh = memstick_alloc_host(sizeof(struct tifm_ms), &sock->dev);
	if (!msh)
		return -ENOMEM;
	host = memstick_priv(msh);
	tifm_set_drvdata(sock, msh);
	host->dev = sock;
	tasklet_init(&host->notify, tifm_ms_req_tasklet, (unsigned long)msh);
	msh->request = tifm_ms_submit_req;
	return memstick_add_host(msh);
}
