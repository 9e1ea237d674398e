// SPDX-License-Identifier: GPL-2.0-only
#include <linux/kthread.h>
#include <linux/ccp.h>

#include "ccp-dev.h"

struct ccp_tasklet_data {
	struct completion completion;
	struct ccp_cmd *cmd;
};

static void ccp_do_cmd_complete(unsigned long data)
{
	struct ccp_tasklet_data *tdata = (struct ccp_tasklet_data *)data;
	struct ccp_cmd *cmd = tdata->cmd;

	cmd->callback(cmd->data, cmd->ret);

	complete(&tdata->completion);
}

int ccp_cmd_queue_thread(void *data)
{
	struct ccp_cmd_queue *cmd_q = (struct ccp_cmd_queue *)data;
	struct ccp_cmd *cmd;
	struct ccp_tasklet_data tdata;
	struct tasklet_struct tasklet;

	tasklet_init(&tasklet, ccp_do_cmd_complete, (unsigned long)&tdata);

	while (!kthread_should_stop()) {
		cmd = ccp_next_cmd(cmd_q);
		if (!cmd)
			continue;

		cmd->ret = ccp_run_cmd(cmd_q, cmd);

		tdata.cmd = cmd;
		init_completion(&tdata.completion);
		tasklet_schedule(&tasklet);
		wait_for_completion(&tdata.completion);
	}

	return 0;
}
