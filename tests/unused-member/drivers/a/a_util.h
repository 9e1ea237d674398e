/* SPDX-License-Identifier: GPL-2.0 */
#define A_DONE_ITEM(p) (&(p)->done_tasklet)
