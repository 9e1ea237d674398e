# SPDX-License-Identifier: GPL-2.0-only
"""Small fake trees for the unit tests."""

from __future__ import annotations

from pathlib import Path

# compile-test's Kbuild reading and include graph (test_kbuild, test_includes).
KBUILD_TREE = {
    "Makefile": "VERSION = 6\n",
    "drivers/Makefile": ("obj-$(CONFIG_FOO) += foo/\nobj-y += bar/\nobj-$(CONFIG_OFF) += off/\n"
                         "obj-$(subst m,y,$(CONFIG_HV)) += hv/\n"),
    "drivers/hv/Makefile": "obj-${CONFIG_HV} := hv_vmbus.o\nhv_vmbus-y := vmbus_drv.o\n",
    "drivers/foo/Makefile": (
        "obj-$(CONFIG_FOO_A) += a.o\n"
        "m-y := b.o \\\n\tc.o\n"
        "obj-$(CONFIG_M) += m.o\n"
        "ifdef CONFIG_Z\nobj-y += z.o\nelse\nobj-y += notz.o\nendif\n"
        "x-y := x1.o\n"
        "big-$(CONFIG_X) += $(x-y)\n"
        "obj-m += big.o\n"
        "obj-y += sub/s.o\n"),
    "drivers/bar/Makefile": "obj-m += bar.o\n",
    "drivers/off/Makefile": "obj-y += o.o\n",
    "drivers/foo/priv.h": "struct p;\n",
    "drivers/foo/a.c": '#include "priv.h"\n#include <linux/pub.h>\n',
    "drivers/foo/b.c": '#include "wrap.h"\n',
    "drivers/foo/wrap.h": '#include "priv.h"\n',
    "drivers/foo/sub/s.c": '#include "priv.h"\n#include "sub/local.h"\n',
    "drivers/foo/sub/local.h": "",
    "drivers/bar/bar.c": "#include <linux/pub.h>\n#include <linux/wrappub.h>\n",
    "include/linux/pub.h": "struct q;\n",
    "include/linux/wrappub.h": "#include <linux/pub.h>\n",
}


def write_tree(top: Path, files: dict[str, str]) -> Path:
    for p, text in files.items():
        (top / p).parent.mkdir(parents=True, exist_ok=True)
        (top / p).write_text(text)
    return top
