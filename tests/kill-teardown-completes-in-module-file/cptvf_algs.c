// SPDX-License-Identifier: GPL-2.0
#include <crypto/internal/skcipher.h>
#include "cptvf.h"

static void cptvf_skcipher_callback(int status, void *arg)
{
	struct crypto_async_request *areq = arg;

	crypto_request_complete(areq, status);
}

int cptvf_submit(struct cptvf *cptvf, struct skcipher_request *req)
{
	struct cptvf_pentry *pentry = &cptvf->pentry[0];

	pentry->callback = cptvf_skcipher_callback;
	pentry->arg = &req->base;
	pentry->busy = true;
	return -EINPROGRESS;
}

int cptvf_register_algs(void)
{
	return 0;
}

void cptvf_unregister_algs(void)
{
}
