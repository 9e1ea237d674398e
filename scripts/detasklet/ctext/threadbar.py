# SPDX-License-Identifier: GPL-2.0-only
"""The C text that the TARGET=thread bar check (check/thread_bar.py) reads,
on purpose broader than what the conversion reads (ctext/blockio.py), so
that the check does not repeat the rule it checks:

- the process-context system workqueues a patch's added lines queue on
  (any system_*_wq that is not a BH one), and the guards they name;
- every call in a source file to a function of the block, SCSI, ATA,
  NVMe, MMC or memstick layers, and to the host registrations of the
  buses whose devices are block devices (USB host controllers, FireWire
  cards, the VMBus): a folder whose code calls none of them holds no
  driver that completes block I/O.
"""

from __future__ import annotations

import re

from .gitdiff import FileDiff
from .lex import mask

_QUEUE_RE = re.compile(r"\bsystem_(?!bh_|bh\b)\w*wq\b")
_GUARD_RE = re.compile(r"\b\w+_bh_off\b")
# A BH workqueue (system_bh_wq, a subsystem's dmaengine_bh_highpri_wq).
_BH_QUEUE_RE = re.compile(r"\b\w*_bh(?:_highpri)?_wq\b")
# The layers' function prefixes (each also with a leading __), and the
# registrations of a disk or of a storage bus's host, by name.
_BLOCK_LAYERS = ("blk", "bio", "scsi", "ata", "nvme", "mmc", "memstick", "sbp2")
_BLOCK_HOSTS = ("add_disk", "device_add_disk", "register_blkdev", "__register_blkdev",
                "usb_add_hcd", "fw_card_add", "vmbus_device_register")
_BLOCK_RE = re.compile(r"(?<![\w.>])((?:__)?(?:" + "|".join(_BLOCK_LAYERS) + r")_\w+|"
                       + "|".join(_BLOCK_HOSTS) + r")\s*\(")


def _added(fd: FileDiff, pattern: re.Pattern[str]) -> list[str]:
    """What pattern finds in fd's added lines, sorted, each once."""
    return sorted({m for _, body in fd.hunks for line in body if line.startswith("+")
                   for m in pattern.findall(line[1:])})


def process_queues(fd: FileDiff) -> list[str]:
    """The process-context system workqueues fd's added lines name, sorted."""
    return _added(fd, _QUEUE_RE)


def bh_queues(fd: FileDiff) -> list[str]:
    """The BH workqueues fd's added lines name, sorted."""
    return _added(fd, _BH_QUEUE_RE)


def guards(fd: FileDiff) -> list[str]:
    """The local_bh_disable() guards (foo_bh_off) fd's added lines name, sorted."""
    return _added(fd, _GUARD_RE)


def block_calls(text: str) -> list[str]:
    """The block-layer (and storage-bus host) functions text's code calls,
    sorted, each once."""
    return sorted(set(_BLOCK_RE.findall(mask(text))))
