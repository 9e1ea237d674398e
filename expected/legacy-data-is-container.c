// SPDX-License-Identifier: GPL-2.0
/* Legacy tasklet_init() whose data is the struct holding the tasklet. */
#include <linux/interrupt.h>

struct aes_dev {
	struct work_struct	done_task;
	int			is_async;
};

static void aes_done_task(struct work_struct *work);

static void aes_done_task(struct work_struct *work)
{
	struct aes_dev *dd = from_work(dd, work, done_task);

	dd->is_async = 1;
}

static int aes_probe(struct aes_dev *dd)
{
	INIT_WORK(&dd->done_task, aes_done_task);
	return 0;
}

static void aes_remove(struct aes_dev *dd)
{
	flush_work(&dd->done_task);
}
