# SPDX-License-Identifier: GPL-2.0-only
"""Whether a driver completes block I/O: the calls in its code that show it.

A driver is in the memory-reclaim path when it registers a SCSI host or a
block device, calls the block layer's completion API, or registers a host
of a bus whose cards are block devices (memstick, MMC) or whose work runs
the completions of a SCSI driver (a USB host controller, for usb-storage;
the VMBus, for storvsc): reclaim writes
pages back through it and waits for its completions. facts() finds those
calls in one file (code only: comments and literals are masked);
module_files() names the files of the kbuild module a file is linked
into, so that a tasklet in one file of a driver is judged by the whole
driver (megaraid_sas_base.c, or dasd.c with dasd_genhd.c).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

from . import kbuild
from .lex import line_of, mask

# call -> what calling it makes the driver
CALLS: dict[str, str] = {
    **dict.fromkeys(("scsi_host_alloc", "scsi_add_host", "scsi_add_host_with_dma",
                     "iscsi_host_alloc", "ata_host_register", "ata_host_activate"),
                    "registers a SCSI host"),
    **dict.fromkeys(("device_add_disk", "add_disk", "blk_mq_alloc_disk", "blk_alloc_disk",
                     "__register_blkdev", "register_blkdev", "blk_mq_alloc_tag_set",
                     "blk_mq_alloc_sq_tag_set"),
                    "registers a block device"),
    **dict.fromkeys(("blk_mq_complete_request", "blk_mq_end_request", "__blk_mq_end_request",
                     "blk_mq_end_request_batch", "bio_endio", "scsi_done", "scsi_done_direct"),
                    "completes block requests"),
    **dict.fromkeys(("memstick_add_host", "mmc_add_host"),
                    "registers a host of a bus whose cards are block devices (their block "
                    "requests complete when the host's do)"),
    # usb-storage's (and uas's) SCSI commands complete in the URB completions
    # a USB host controller driver gives back (usb_hcd_giveback_urb())
    "usb_add_hcd": ("registers a USB host controller, whose URB completions complete the "
                    "block requests of USB mass storage"),
    # the channel callbacks of the VMBus's devices run in its work, and
    # storvsc (drivers/scsi/storvsc_drv.c) completes SCSI commands there
    "vmbus_device_register": ("registers the devices of the VMBus, whose channel callbacks "
                              "it runs, storvsc's SCSI completions among them"),
}
_CALL_RE = re.compile(r"(?<![\w.>])(" + "|".join(sorted((re.escape(c) for c in CALLS), key=len,
                                                          reverse=True)) + r")\s*\(")


@dataclass(frozen=True)
class Fact:
    path: str
    call: str
    line: int

    def words(self) -> str:
        return f"{self.path} {CALLS[self.call]} ({self.call}() at line {self.line})"


def facts(rel: str, text: str) -> list[Fact]:
    """The first call of each kind (CALLS' words) in text's code."""
    code = mask(text)
    seen: dict[str, Fact] = {}
    for m in _CALL_RE.finditer(code):
        kind = CALLS[m.group(1)]
        if kind not in seen:
            seen[kind] = Fact(rel, m.group(1), line_of(code, m.start()))
    return list(seen.values())


def module_files(kdir: Path, rel: str) -> list[str]:
    """The .c files of the kbuild module rel is linked into (its folder's
    kbuild file), rel first; [rel] when that file does not list it."""
    d = posixpath.dirname(rel)
    stem = posixpath.splitext(posixpath.basename(rel))[0]
    mods = kbuild.modules(kbuild.read(kdir, d))
    if stem not in mods:
        return [rel]
    out = [rel]
    for obj, mod in sorted(mods.items()):
        f = posixpath.join(d, obj + ".c")
        if mod == mods[stem] and f != rel and (kdir / f).is_file():
            out.append(f)
    return out
