# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# boot: the kernel came up; the dmaengine core registered its class
# (dma_bus_init() returned 0: with the prep patch it first allocates the
# dmaengine_bh workqueues and fails with -ENOMEM if it cannot), and the
# kernel has the tasklet API or not (the converted kernel must not).
[ -d /sys/class/dma ] || fail "/sys/class/dma missing: dma_bus_init() failed"
fig dma_class present
n=$(grep -c -w -E 'dmaengine_bh_wq|dmaengine_bh_highpri_wq' /proc/kallsyms || true)
fig dmaengine_bh_symbols "$n"
t=$(grep -c -w -E '__tasklet_schedule|tasklet_action|tasklet_init|tasklet_setup|tasklet_kill' /proc/kallsyms || true)
fig tasklet_symbols "$t"
fig cpus "$(grep -c ^processor /proc/cpuinfo)"
grep -E 'HI|TASKLET' /proc/softirqs || true
