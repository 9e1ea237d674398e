# SPDX-License-Identifier: GPL-2.0-only
"""The subject prefix of a driver's patch: `dmaengine: at_hdmac`.

From git history when KDIR is a git checkout (the most frequent prefix of
the last subjects that touched the files), else from a table of subsystem
conventions keyed by path, applied to the driver found by series/drivers.py. The
table is the part that encodes what maintainers expect; a path it does not
know falls back to `<folder>: <driver>` and is counted as such.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from pathlib import Path

from .. import proc

# path prefix -> (tag, mode, separator before the subject text)
#   path:  tag: <folders below the prefix>: <driver>   (dmaengine: qcom: bam_dma)
#   last:  tag: <driver>                                (wifi: ath9k)
#   slash: tag/<driver>                                 (RDMA/hfi1, s390/dasd)
#   fixed: tag                                          (wifi: mac80211)
TABLE: dict[str, tuple[str, str, str]] = {
    "drivers/dma/": ("dmaengine", "path", ":"),
    "drivers/crypto/": ("crypto", "last", " -"),
    "drivers/net/wireless/": ("wifi", "last", ":"),
    "drivers/net/ethernet/mellanox/mlx5/": ("net/mlx5", "fixed", ":"),
    "drivers/net/ethernet/mellanox/mlx4/": ("net/mlx4", "fixed", ":"),
    "drivers/net/ethernet/ni/": ("net: nixge", "fixed", ":"),   # ni/ holds nixge only
    # cavium/thunder/ is the ThunderX NIC (nicvf, nicpf; git log: "net: thunderx: ...")
    "drivers/net/ethernet/cavium/thunder/": ("net: thunderx", "fixed", ":"),
    # mtk_wed*.c of mediatek/ (git log: "net: ethernet: mtk_wed: ...")
    "drivers/net/ethernet/mediatek/mtk_wed": ("net: ethernet: mtk_wed", "fixed", ":"),
    # nfp's history: "nfp: ..." ("nfp: flower: ..." for its apps), not "net: nfp"
    "drivers/net/ethernet/netronome/nfp/": ("nfp", "fixed", ":"),
    "drivers/net/ethernet/": ("net", "last", ":"),
    "drivers/net/usb/": ("net: usb", "last", ":"),
    "drivers/net/can/": ("can", "last", ":"),
    "drivers/net/wan/": ("net: wan", "last", ":"),
    "drivers/net/ppp/": ("ppp", "fixed", ":"),
    "drivers/net/caif/": ("net: caif", "last", ":"),
    "drivers/net/hyperv/": ("hv_netvsc", "fixed", ":"),
    "drivers/net/": ("net", "last", ":"),
    "drivers/scsi/": ("scsi", "last", ":"),
    "drivers/s390/scsi/": ("scsi: zfcp", "fixed", ":"),
    "drivers/s390/": ("s390", "slash", ":"),
    "drivers/infiniband/": ("RDMA", "slash", ":"),
    "drivers/usb/host/xhci": ("usb: xhci", "fixed", ":"),   # xhci*.c: one driver, xhci-hcd
    "drivers/usb/": ("usb", "path", ":"),
    "drivers/staging/media/": ("media", "last", ":"),
    "drivers/staging/": ("staging", "path", ":"),
    "drivers/media/": ("media", "last", ":"),
    "drivers/tty/serial/": ("serial", "last", ":"),
    # the VT layer (history: "tty: vt: ..." and "vt: keyboard: ...")
    "drivers/tty/vt/": ("tty: vt", "last", ":"),
    "drivers/tty/": ("tty", "last", ":"),
    "drivers/i2c/": ("i2c", "last", ":"),
    "drivers/atm/": ("atm", "last", ":"),
    "drivers/bus/mhi/": ("bus: mhi", "fixed", ":"),
    # the MHI host stack (git log: "bus: mhi: host: ..."; ep/ is "bus: mhi: ep:")
    "drivers/bus/mhi/host/": ("bus: mhi: host", "fixed", ":"),
    "drivers/hsi/": ("HSI", "last", ":"),
    "drivers/misc/": ("misc", "last", ":"),
    "drivers/ntb/": ("NTB", "last", ":"),
    "drivers/rapidio/": ("rapidio", "last", ":"),
    "drivers/input/": ("Input", "last", ":"),
    "drivers/mmc/": ("mmc", "last", ":"),
    "drivers/gpu/drm/": ("drm", "slash", ":"),
    "drivers/firewire/": ("firewire", "last", ":"),
    "drivers/platform/x86/": ("platform/x86", "last", ":"),
    "drivers/platform/": ("platform", "last", ":"),
    "drivers/mailbox/": ("mailbox", "last", ":"),
    "drivers/spi/": ("spi", "last", ":"),
    "drivers/hid/": ("HID", "last", ":"),
    "drivers/char/ipmi/": ("ipmi", "last", ":"),
    "drivers/char/": ("char", "last", ":"),
    "drivers/block/": ("block", "last", ":"),
    "drivers/isdn/": ("mISDN", "last", ":"),
    "drivers/mfd/": ("mfd", "last", ":"),
    "drivers/pci/": ("PCI", "last", ":"),
    "drivers/hv/": ("Drivers: hv", "fixed", ":"),     # "Drivers: hv: vmbus:" is per file
    "drivers/bluetooth/": ("Bluetooth", "last", ":"),
    "drivers/video/fbdev/": ("fbdev", "last", ":"),
    "drivers/mtd/": ("mtd", "last", ":"),
    "drivers/soc/": ("soc", "last", ":"),
    "drivers/firmware/": ("firmware", "last", ":"),
    "drivers/iio/": ("iio", "last", ":"),
    "drivers/leds/": ("leds", "last", ":"),
    "drivers/power/": ("power", "last", ":"),
    "drivers/xen/": ("xen", "last", ":"),
    "drivers/virtio/": ("virtio", "last", ":"),
    "drivers/vhost/": ("vhost", "last", ":"),
    "drivers/remoteproc/": ("remoteproc", "last", ":"),
    "drivers/parport/": ("parport", "last", ":"),
    "drivers/pcmcia/": ("pcmcia", "last", ":"),
    "drivers/edac/": ("EDAC", "last", ":"),
    "drivers/thunderbolt/": ("thunderbolt", "last", ":"),
    "drivers/vfio/": ("vfio", "last", ":"),
    "sound/soc/": ("ASoC", "last", ":"),
    "sound/": ("ALSA", "last", ":"),
    "net/mac80211/": ("wifi: mac80211", "fixed", ":"),
    "net/wireless/": ("wifi: cfg80211", "fixed", ":"),
    "net/bluetooth/": ("Bluetooth", "fixed", ":"),
    "net/mac802154/": ("mac802154", "fixed", ":"),
    "net/ieee802154/": ("ieee802154", "fixed", ":"),
    "net/smc/": ("net/smc", "fixed", ":"),
    "net/rds/": ("net/rds", "fixed", ":"),
    "net/iucv/": ("net/iucv", "fixed", ":"),
    "net/atm/": ("net: atm", "last", ":"),
    "net/ipv4/tcp": ("tcp", "fixed", ":"),
    "net/sched/": ("net/sched", "last", ":"),
    "net/": ("net", "last", ":"),
    "kernel/irq/": ("genirq", "slash", ":"),
    "kernel/debug/": ("kgdb", "fixed", ":"),
    "include/linux/kgdb": ("kgdb", "fixed", ":"),
    "include/linux/platform_data/dma-": ("dmaengine", "last", ":"),
    "lib/": ("lib", "last", ":"),
    # the BPF selftests' test module (history: "selftests/bpf: ..."); its
    # folder builds several modules with a plain Makefile, so the file names it
    "tools/testing/selftests/bpf/test_kmods/bpf_testmod": ("selftests/bpf", "fixed", ":"),
}


def root_of(path: str, files: tuple[str, ...] = ()) -> str | None:
    """The longest TABLE key that path starts with, or that every one of
    files starts with (a key for the files of one driver, mtk_wed*)."""
    keys = [k for k in TABLE if path.startswith(k)
            or files and all(f.startswith(k) for f in files)]
    return max(keys, key=len) if keys else None


def key_name(files: tuple[str, ...]) -> str:
    """The driver a fixed TABLE key for a file name (not a folder) names,
    when every one of files starts with it: mtk_wed for mtk_wed_wo.c and
    mtk_wed_wo.h; "" otherwise."""
    keys = [k for k, (_, mode, _) in TABLE.items() if mode == "fixed" and not k.endswith("/")
            and files and all(f.startswith(k) for f in files)]
    return posixpath.basename(max(keys, key=len)) if keys else ""


def from_table(where: str, name: str, files: tuple[str, ...] = ()) -> tuple[str, str, str]:
    """(prefix, separator, source) for the driver `name` that lives in
    folder `where` (files: the patch's, for a key of their names);
    source is "table" or "path" (the fallback)."""
    here = f"{where}/{name}/"
    root = root_of(here, files)
    if root is None:
        parts = where.split("/")
        top = parts[1] if parts[0] == "drivers" and len(parts) > 1 else parts[0]
        return (f"{top}: {name}" if top != name else top, ":", "path")
    tag, mode, sep = TABLE[root]
    name = strip_name(name, tag)
    if mode == "fixed":
        return tag, sep, "table"
    if mode == "slash":
        return f"{tag}/{name}", sep, "table"
    if mode == "last":
        return f"{tag}: {name}", sep, "table"
    rel = where[len(root):].strip("/") if where.startswith(root.rstrip("/")) else ""
    comps = [c for c in rel.split("/") if c]
    if not comps or comps[-1] != name:
        comps.append(name)
    return tag + "".join(f": {c}" for c in comps), sep, "table"


# name prefixes that only repeat the subsystem (dma-axi-dmac, i2c-bcm-iproc)
_REDUNDANT = ("dma-", "i2c-")
# folder names that say how a driver attaches, not which driver it is
GENERIC = {"pcie", "pci", "usb", "sdio", "core", "hal", "common", "include", "lib", "host",
           "hw", "devices"}


# name suffixes that repeat the subsystem or say "the common part": the
# drivers' history names them without (crypto: aspeed -, crypto: qat -,
# crypto: ixp4xx -), not by the module (aspeed_crypto) or folder (qat_common)
_REDUNDANT_END = {"crypto": ("_crypto", "-crypto")}
_COMMON_END = ("_common",)


def strip_name(name: str, tag: str) -> str:
    for r in _REDUNDANT:
        if name.startswith(r) and len(name) > len(r) + 2:
            return name[len(r):]
    for r in _REDUNDANT_END.get(tag, ()) + _COMMON_END:
        if name.endswith(r) and len(name) > len(r) + 2:
            return name[:-len(r)]
    return name


_SUBJ_RE = re.compile(r"^(?:\[[^\]]*\]\s*)*(.*)$")


def prefix_of_subject(subject: str) -> tuple[str, str] | None:
    """('dmaengine: at_hdmac', ':') of 'dmaengine: at_hdmac: Fix x', or
    ('crypto: ccp', ' -') of 'crypto: ccp - Fix x'; None without one."""
    ms = _SUBJ_RE.match(subject.strip())
    if ms is None:
        return None
    s = ms[1]
    if s.startswith(("Revert ", "Merge ")):
        return None
    m = re.match(r"^([\w./-]+(?:: [\w./-]+)*) - \S", s)
    if m and ":" in m[1]:
        return m[1], " -"
    parts = s.split(": ")
    if len(parts) < 2 or not all(re.fullmatch(r"[\w./ -]+", p) and len(p) < 40
                                 for p in parts[:-1]):
        return None
    return ": ".join(parts[:-1]), ":"


def from_history(kdir: Path, files: list[str], depth: int = 60) -> tuple[str, str] | None:
    """The most frequent prefix of the last `depth` non-merge subjects
    touching files (ties: the most recent); None if git has none."""
    r = proc.run(["git", "-C", str(kdir), "log", "--no-merges", f"-n{depth}",
                  "--format=%s", "--", *files])
    if r.rc != 0:
        return None
    found = [p for p in map(prefix_of_subject, r.stdout.splitlines()) if p]
    if not found:
        return None
    counts = Counter(found)
    best = max(counts.values())
    return next(p for p in found if counts[p] == best)


def is_git(kdir: Path) -> bool:
    return (kdir / ".git").exists()


def common_name(names: list[str]) -> str:
    """One short name for several modules of one section: their common
    prefix without trailing separators (tegra186-gpc-dma, tegra20-apb-dma
    -> tegra), never cut inside a word (xhci-dbgcap, xhci-dbgtty -> xhci,
    not xhci-dbg, the name of another file), or '' when that is shorter
    than 3 characters."""
    p = posixpath.commonprefix(sorted(set(names)))
    if p and p[-1].isalpha() and any(len(n) > len(p) and n[len(p)].isalpha() for n in names):
        # cut inside a word (xhci-dbg of xhci-dbgcap, xhci-dbgtty): to the word before
        p = re.sub(r"[^-_]*$", "", p)
    p = re.sub(r"[-_]+$", "", p)
    return p if len(p) >= 3 else ""
