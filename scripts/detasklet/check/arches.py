# SPDX-License-Identifier: GPL-2.0-only
"""The architectures compile-test builds on, and which one a file needs.

Each has its Debian cross compiler; a file under arch/<a>/ (or an
arch-only driver folder) goes to that arch, everything else to x86_64
first, then to the other arches in order, until one allmodconfig builds it.
"""

from __future__ import annotations

import re
import shlex
import sys
from dataclasses import dataclass
from typing import Iterable


@dataclass(frozen=True)
class Arch:
    name: str          # our name, and the build folder prefix
    karch: str         # ARCH= for kbuild
    cross: str         # CROSS_COMPILE= prefix ('' for the host)
    package: str       # Debian package of the compiler
    allconfig: str = ""  # KCONFIG_ALLCONFIG lines: symbols allmodconfig must keep

    @property
    def compiler(self) -> str:
        return self.cross + "gcc"


ARCHES: dict[str, Arch] = {a.name: a for a in (
    Arch("x86_64", "x86_64", "", "gcc"),
    Arch("arm64", "arm64", "aarch64-linux-gnu-", "gcc-aarch64-linux-gnu"),
    Arch("arm", "arm", "arm-linux-gnueabihf-", "gcc-arm-linux-gnueabihf"),
    Arch("s390", "s390", "s390x-linux-gnu-", "gcc-s390x-linux-gnu"),
    Arch("powerpc", "powerpc", "powerpc64le-linux-gnu-", "gcc-powerpc64le-linux-gnu"),
    # 32-bit Book3S: MPC512x, 83xx (QUICC Engine), the FSL_SOC drivers.
    Arch("powerpc32", "powerpc", "powerpc-linux-gnu-", "gcc-powerpc-linux-gnu",
         "# CONFIG_PPC64 is not set\n"),
    Arch("mips", "mips", "mips-linux-gnu-", "gcc-mips-linux-gnu"),
    # 32-bit PA-RISC: the GSC bus of HP workstations (hil_mlc, hp_sdc).
    Arch("parisc", "parisc", "hppa-linux-gnu-", "gcc-hppa-linux-gnu"),
    # Platforms no plain allmodconfig picks (a choice, or a symbol it turns
    # off): allmodconfig with the platform's symbol kept. Tried last, only
    # for the files the arches above did not build.
    # PowerPC 44x (crypto4xx, the 440SPe ADMA).
    Arch("powerpc44x", "powerpc", "powerpc-linux-gnu-", "gcc-powerpc-linux-gnu",
         "# CONFIG_PPC64 is not set\nCONFIG_44x=y\n"),
    # FSL RAID: FSL_SOC without the DMA drivers that select
    # ASYNC_TX_ENABLE_CHANNEL_SWITCH, which it conflicts with. Without
    # WERROR: fsl_raid.c compares a descriptor pointer with 0 ("desc <= 0"),
    # an error with -Werror pristine as converted, which would hide any
    # error of its own conversion.
    Arch("powerpc32-fsl-raid", "powerpc", "powerpc-linux-gnu-", "gcc-powerpc-linux-gnu",
         "# CONFIG_PPC64 is not set\n# CONFIG_WERROR is not set\n" + "".join(
             f"# CONFIG_{s} is not set\n" for s in (
                 "FSL_DMA", "FSL_QDMA", "MV_XOR", "MV_XOR_V2", "XGENE_DMA", "MTK_CQDMA"))),
    # Cavium Octeon (octeon_mgmt), Toshiba TX49 (txx9dmac).
    Arch("mips-octeon", "mips", "mips-linux-gnu-", "gcc-mips-linux-gnu",
         "CONFIG_CAVIUM_OCTEON_SOC=y\n"),
    Arch("mips-tx49", "mips", "mips-linux-gnu-", "gcc-mips-linux-gnu",
         "CONFIG_MACH_TX49XX=y\n"),
    # OMAP1 (omap-keypad): ARMv5 multiplatform.
    Arch("arm-omap1", "arm", "arm-linux-gnueabihf-", "gcc-arm-linux-gnueabihf",
         "CONFIG_ARCH_MULTI_V5=y\n# CONFIG_ARCH_MULTI_V6 is not set\n"
         "# CONFIG_ARCH_MULTI_V7 is not set\nCONFIG_ARCH_OMAP1=y\n"),
    # Hyper-V VTL (mshv_vtl: needs MTRR off) and FIPS (ccree's cc_fips:
    # needs the DRBG built in and, on 6.12, the crypto self-tests kept).
    Arch("x86_64-vtl-fips", "x86_64", "", "gcc",
         "# CONFIG_MTRR is not set\nCONFIG_CRYPTO_DRBG=y\n"
         "# CONFIG_CRYPTO_MANAGER_DISABLE_TESTS is not set\n"),
)}
DEFAULT_ARCHES = tuple(ARCHES)

# Path prefix -> the only architecture that can build it (first match wins).
PATH_ARCH: tuple[tuple[str, str], ...] = (
    ("arch/x86/", "x86_64"), ("arch/arm64/", "arm64"), ("arch/arm/", "arm"),
    ("arch/s390/", "s390"), ("drivers/s390/", "s390"), ("net/iucv/", "s390"),
    ("arch/powerpc/", "powerpc"), ("drivers/macintosh/", "powerpc"),
    ("drivers/ps3/", "powerpc"), ("arch/mips/", "mips"),
    ("arch/parisc/", "parisc"), ("drivers/parisc/", "parisc"),
)


def arch_for(path: str) -> str | None:
    """The one arch that can build path, None for any. arch/<a>/ of an arch
    not in ARCHES gives its folder name, which no run has."""
    for prefix, a in PATH_ARCH:
        if path.startswith(prefix):
            return a
    m = re.match(r"arch/([^/]+)/", path)
    return m.group(1) if m else None


def order(arches: Iterable[str]) -> list[str]:
    """x86_64 first, then the others in the order of ARCHES."""
    return sorted(arches, key=lambda a: (a != "x86_64", DEFAULT_ARCHES.index(a)))


def candidates(objs: Iterable[str], arch: str) -> list[str]:
    """The objects arch may build."""
    return sorted(o for o in objs if arch_for(o) in (None, arch, ARCHES[arch].karch))


def make_vars(arch: Arch, cc: str | None) -> list[str]:
    """ARCH=, CROSS_COMPILE= and CC= for make; in CC, a final gcc becomes
    the cross compiler's."""
    v = [f"ARCH={arch.karch}"]
    if arch.cross:
        v.append(f"CROSS_COMPILE={arch.cross}")
    if cc:
        words = shlex.split(cc)
        if arch.cross and words and words[-1] == "gcc":
            words[-1] = arch.cross + "gcc"
        v.append("CC=" + shlex.join(words))
    return v


def packages(names: Iterable[str]) -> list[str]:
    """The Debian packages of the compilers of the named arches (all of
    them when none is named); a KeyError names an unknown one."""
    return sorted({ARCHES[n].package for n in (list(names) or DEFAULT_ARCHES)})


def main(argv: list[str]) -> int:
    """`python3 -m detasklet.check.arches packages [ARCH...]`: the compiler
    packages, one line (the Makefile's compile-deps reads the table here,
    so it is written once); `names`: the default arches."""
    if argv[:1] == ["names"]:
        print(" ".join(DEFAULT_ARCHES))
        return 0
    if argv[:1] != ["packages"]:
        print("usage: python3 -m detasklet.check.arches packages [ARCH...] | names",
              file=sys.stderr)
        return 2
    try:
        print(" ".join(packages(argv[1:])))
    except KeyError as e:
        print(f"detasklet: unknown arch {e.args[0]} (ARCHES: {' '.join(DEFAULT_ARCHES)})",
              file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
