# SPDX-License-Identifier: GPL-2.0-only
"""One boot of a kernel under QEMU (x86_64, TCG), the serial console to a
log file.

No network backend (-nic none): every packet of the workloads stays inside
the guest. TCG, not KVM: on the machines this was written on /dev/kvm opens
but a Linux guest stalls after the firmware. The guest powers itself off
when its /init is done; the run is killed at its timeout otherwise.
"""

from __future__ import annotations

import logging
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from ... import proc
from ...errors import BuildError, ToolError

log = logging.getLogger("detasklet")

QEMU = "qemu-system-x86_64"
# initcall_debug: "initcall X returned -N" is printed only with it (at
# KERN_DEBUG, hence loglevel=8); panic=-1 with -no-reboot: a panic ends the
# run; noapic: without ACPI the kernel finds QEMU's 8254 timer on no IO-APIC
# pin under TCG and panics ("IO-APIC + timer doesn't work").
CMDLINE = ("console=ttyS0,115200 loglevel=8 initcall_debug panic=-1 oops=panic noapic "
           "mac80211_hwsim.radios=2 "
           "workqueue.watchdog_thresh=60")


@dataclass
class Boot:
    log: Path
    seconds: float
    exit_code: int | None     # None: killed at the timeout
    timed_out: bool


def make_disk(path: Path, mb: int) -> None:
    """A sparse raw disk image of mb MiB for the megasas controller."""
    if path.is_file() and path.stat().st_size == mb << 20:
        return
    with open(path, "wb") as f:
        f.truncate(mb << 20)


def command(kernel: Path, initrd: Path, disk: Path | None, mem_mb: int, cpus: int,
            extra_cmdline: str = "") -> list[str]:
    """The QEMU command line of one boot."""
    cmd = [QEMU, "-machine", "pc", "-accel", "tcg", "-cpu", "max", "-smp", str(cpus),
           "-m", str(mem_mb), "-kernel", str(kernel), "-initrd", str(initrd),
           "-append", f"{CMDLINE} {extra_cmdline}".strip(),
           "-nic", "none", "-display", "none", "-vga", "std", "-monitor", "none",
           "-serial", "stdio", "-no-reboot"]
    if disk is not None:
        cmd += ["-device", "megasas,id=raid0",
                "-drive", f"file={disk},if=none,id=d0,format=raw,cache=unsafe",
                "-device", "scsi-hd,drive=d0,bus=raid0.0"]
    return cmd


def boot(cmd: list[str], logfile: Path, timeout: int, progress: bool = True,
         label: str = "guest") -> Boot:
    """Run cmd, its output (the serial console) into logfile; kill it (its
    own process group) after timeout seconds. Markers of the guest's /init
    ("@@detasklet begin X") are relayed to the terminal as they come."""
    if not shutil.which(cmd[0]):
        raise ToolError(f"{cmd[0]} not found (make bench-deps installs qemu-system-x86)")
    start = time.monotonic()
    timed_out = False
    with open(logfile, "wb") as out, proc.raw(cmd) as p:
        assert p.stdout is not None
        os.set_blocking(p.stdout.fileno(), False)
        pending = b""
        while True:
            if time.monotonic() - start > timeout:
                timed_out = True
                proc.kill(p)
                break
            chunk = p.stdout.read(65536)
            if chunk:
                out.write(chunk)
                out.flush()
                pending += chunk
                *lines, pending = pending.split(b"\n")
                for ln in lines:
                    if progress and ln.startswith(b"@@detasklet ") and b" hit " not in ln:
                        log.info(f"  {label} {time.monotonic() - start:6.0f} s: "
                                 f"{ln.decode(errors='replace').strip()[12:]}")
            elif p.poll() is not None:
                break
            else:
                time.sleep(0.2)
        rest = p.stdout.read() or b""
        out.write(rest)
    code = p.wait()
    secs = time.monotonic() - start
    if code and not timed_out and secs < 5:
        raise BuildError(f"QEMU failed at once (exit {code}): see {logfile}")
    return Boot(logfile, secs, None if timed_out else code, timed_out)
