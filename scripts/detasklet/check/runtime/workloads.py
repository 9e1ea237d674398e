# SPDX-License-Identifier: GPL-2.0-only
"""The workloads of make runtime, in the order they run in the guest.

Each one is a shell script in scripts/runtime/workloads/NAME.sh, run by the
guest's /init (scripts/runtime/init.sh) with the helpers of
scripts/runtime/lib.sh; the tools it needs come from Debian packages and
are copied into the initramfs with their libraries. `what` is the phrase a
mail quotes when the workload passed on both kernels.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Workload:
    name: str
    what: str                       # "mac80211_hwsim: WPA2 association, ping and iperf3"
    tools: tuple[str, ...] = ()     # binaries copied into the initramfs
    packages: tuple[str, ...] = ()  # the Debian packages that have them
    disk: bool = False              # QEMU's megasas with a disk image
    # the converted files it is for (path prefixes): a function of another
    # file that ran meanwhile (hostapd's beacons of an earlier workload) is
    # "also ran", never credited to this workload
    targets: tuple[str, ...] = ()
    # programs of ours (tests/runtime/NAME.c), built static into /usr/bin
    programs: tuple[str, ...] = ()


# TCP small queues (a tasklet in 6.12's tcp_output.c): the iperf3 workloads'
# TCP transfer is what runs it.
TCP = "net/ipv4/tcp_output.c"

WORKLOADS: list[Workload] = [
    Workload("boot", "boot: dma_bus_init() and the dmaengine core, tasklet symbols counted",
             targets=("drivers/dma/dmaengine.", "kernel/irq/")),
    Workload("hwsim", "mac80211_hwsim: WPA2-PSK association (hostapd, wpa_supplicant), "
             "ping and iperf3", ("hostapd", "wpa_supplicant", "wpa_cli", "iperf3", "iw", "ip"),
             ("hostapd", "wpasupplicant", "iperf3", "iw", "iproute2"),
             targets=("net/mac80211/", "drivers/net/wireless/virtual/", TCP)),
    Workload("megaraid", "megaraid_sas on QEMU's megasas (LSI MegaRAID SAS 1078): 128 MB "
             "written, read back and compared, PCI remove and rescan", disk=True,
             targets=("drivers/scsi/megaraid/",)),
    Workload("ifb", "ifb: tc mirred redirect of a veth's ingress, ping and iperf3",
             ("ip", "tc", "iperf3"), ("iproute2", "iperf3"),
             targets=("drivers/net/ifb.c", TCP)),
    Workload("ncm", "cdc_ncm: f_ncm gadget on dummy_hcd, ping and iperf3",
             ("ip", "iperf3"), ("iproute2", "iperf3"),
             targets=("drivers/net/usb/", "drivers/usb/", TCP)),
    Workload("smc", "net/smc: SMC-D over the loopback ISM device, an AF_SMC client and "
             "server (200 round trips, 64 MiB), the SMC counters showing SMC-D, not the TCP "
             "fallback, carried them", targets=("net/smc/", "drivers/dibs/"),
             programs=("smc-stream",)),
    Workload("wpan", "mac802154_hwsim: wpan-ping between two radios",
             ("iwpan", "wpan-ping", "ip"), ("wpan-tools", "iproute2"),
             targets=("net/mac802154/", "drivers/net/ieee802154/")),
    Workload("ppp", "ppp_async and ppp_synctty: pppd on both ends of a pty, ping",
             ("pppd", "ip"), ("ppp", "iproute2"), targets=("drivers/net/ppp/",)),
    Workload("vtkbd", "vt keyboard: LEDs set and read back (setleds)", ("setleds",), ("kbd",),
             targets=("drivers/tty/vt/",)),
]

# Looked at and left out, with why (docs/runtime.md says the same).
NOT_RUN = {
    "genirq-resend": "kernel/irq/resend.c: irq_sw_resend() refuses an interrupt marked "
                     "IRQD_HANDLE_ENFORCE_IRQCTX, and x86's vector domain marks every one it "
                     "allocates; the resend work runs only for a chip outside it without "
                     "irq_retrigger, which QEMU's pc machine does not have",
}


def by_name(names: list[str]) -> list[Workload]:
    """The workloads named (all when names is empty), in the run order;
    an unknown name is a ValueError with the known ones."""
    known = {w.name: w for w in WORKLOADS}
    bad = [n for n in names if n not in known]
    if bad:
        raise ValueError(f"unknown workload {', '.join(bad)} (known: {', '.join(known)})")
    return [w for w in WORKLOADS if not names or w.name in names]


def tools(chosen: list[Workload]) -> list[str]:
    return sorted({t for w in chosen for t in w.tools})


def packages(chosen: list[Workload]) -> list[str]:
    return sorted({p for w in chosen for p in w.packages} | {"busybox-static"})
