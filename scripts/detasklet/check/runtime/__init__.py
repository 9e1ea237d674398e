# SPDX-License-Identifier: GPL-2.0-only
"""make runtime (docs/runtime.md): the converted, tasklet-free kernel booted
in QEMU beside the pristine one, the same workloads on both.

    cli        the subcommand's arguments checked
    run        the steps in order: build, initramfs, boot, compare, write
      kbuild     tinyconfig + scripts/runtime/runtime.config, both kernels built
      initramfs  busybox-static, the tools and their libraries, a newc archive
      qemu       one boot under QEMU (TCG, -nic none), serial log to a file
      workloads  the workloads, their tools and what a mail says of them
    results    a serial log cut at the guest's markers; verdicts; the mail line
      logcheck   the kernel's reports in a log (WARNING, lockdep, ODEBUG...)
    report     runtime.json and the table
"""
