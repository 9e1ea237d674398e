// SPDX-License-Identifier: GPL-2.0
/* One legacy callback for two tasklet fields: no single from_work() field. */
#include <linux/interrupt.h>

struct sec {
	struct tasklet_struct done_a;
	struct tasklet_struct done_b;
};

static void sec_done(unsigned long data)
{
	struct sec *s = (struct sec *)data;

	(void)s;
}

static void sec_init(struct sec *s)
{
	tasklet_init(&s->done_a, sec_done, (unsigned long)s);
	tasklet_init(&s->done_b, sec_done, (unsigned long)s);
}
