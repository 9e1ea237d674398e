// SPDX-License-Identifier: GPL-2.0
/*
 * A uintptr_t callback, initialised from two places with two spellings of
 * the same element (qat shape): &banks[i] and banks, the element that
 * holds the tasklet either way: from_work(), no data field.
 */
#include <linux/interrupt.h>

struct etr_bank {
	struct tasklet_struct resp_handler;
	int bank_number;
};

struct etr_data {
	struct etr_bank *banks;
	int num_banks;
};

static void response_handler(uintptr_t bank_addr)
{
	struct etr_bank *bank = (void *)bank_addr;

	pr_debug("bank %d\n", bank->bank_number);
}

static void setup_bh(struct etr_data *priv_data)
{
	int i;

	for (i = 0; i < priv_data->num_banks; i++)
		tasklet_init(&priv_data->banks[i].resp_handler,
			     response_handler,
			     (unsigned long)&priv_data->banks[i]);
}

static void setup_vf_bh(struct etr_data *priv_data)
{
	tasklet_init(&priv_data->banks[0].resp_handler, response_handler,
		     (unsigned long)priv_data->banks);
}
