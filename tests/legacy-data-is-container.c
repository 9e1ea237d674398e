// SPDX-License-Identifier: GPL-2.0
/* Legacy tasklet_init() whose data is the struct holding the tasklet. */
#include <linux/interrupt.h>

struct aes_dev {
	struct tasklet_struct	done_task;
	int			is_async;
};

static void aes_done_task(unsigned long data);

static void aes_done_task(unsigned long data)
{
	struct aes_dev *dd = (struct aes_dev *)data;

	dd->is_async = 1;
}

static int aes_probe(struct aes_dev *dd)
{
	tasklet_init(&dd->done_task, aes_done_task,
		     (unsigned long)dd);
	return 0;
}

static void aes_remove(struct aes_dev *dd)
{
	tasklet_kill(&dd->done_task);
}
