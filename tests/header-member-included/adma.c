// SPDX-License-Identifier: GPL-2.0-only
#include "adma.h"

int adma_slots(struct adma_chan *c)
{
	return c->slots_allocated;
}
