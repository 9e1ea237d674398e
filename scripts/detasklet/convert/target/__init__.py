# SPDX-License-Identifier: GPL-2.0-only
"""The workqueues the converted work queues on (make convert TARGET=).

    policy          policies.toml: a subsystem's own workqueues, written into
                    its drivers' new text after spatch, and its target
    thread          TARGET=thread: the converted work moved to process context
      reclaim         a driver that completes block I/O stays on BH (WQ_MEM_RECLAIM)
"""
