#!/usr/bin/env python3
"""compile-test's pure parts on a small fake tree: which objects kbuild
builds under a .config, which .c files include a converted header, and how
the converted copy is refreshed when all.patch changes.
Closing line: 'N passed, N failed'.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from detasklet import verify  # noqa: E402

FILES = {
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
CFG = {"CONFIG_FOO": "y", "CONFIG_FOO_A": "m", "CONFIG_X": "y", "CONFIG_HV": "m"}


def main() -> int:
    passed = failed = 0

    def check(name: str, got: object, want: object) -> None:
        nonlocal passed, failed
        ok = got == want
        print(f"{'ok  ' if ok else 'FAIL'} {name}{'' if ok else f': got {got!r}, want {want!r}'}")
        passed += ok
        failed += not ok

    with tempfile.TemporaryDirectory() as tmp:
        k = Path(tmp) / "k"
        for p, text in FILES.items():
            (k / p).parent.mkdir(parents=True, exist_ok=True)
            (k / p).write_text(text)
        en = verify.Enablement(k, CFG, "x86_64")
        for obj, want in [("drivers/foo/a.o", True), ("drivers/foo/b.o", False),
                          ("drivers/foo/z.o", False), ("drivers/foo/notz.o", True),
                          ("drivers/foo/x1.o", True), ("drivers/foo/sub/s.o", True),
                          ("drivers/bar/bar.o", True), ("drivers/off/o.o", False),
                          ("drivers/foo/nowhere.o", None),
                          ("drivers/hv/vmbus_drv.o", True)]:
            check(f"enabled {obj}", en.listed(obj), want)
        check("enabled drivers/foo/a.o with CONFIG_FOO off",
              verify.Enablement(k, {"CONFIG_FOO_A": "y"}, "x86_64").listed("drivers/foo/a.o"),
              False)
        rev = verify.include_graph(k)
        by = verify.objects_for(["drivers/foo/priv.h", "include/linux/pub.h"], rev)
        check("local header: includers through local headers",
              sorted(by["drivers/foo/priv.h"]),
              ["drivers/foo/a.c", "drivers/foo/b.c", "drivers/foo/sub/s.c"])
        check("public header: direct includers only", sorted(by["include/linux/pub.h"]),
              ["drivers/bar/bar.c", "drivers/foo/a.c"])
        check("quoted include resolved from a folder above", sorted(rev["drivers/foo/sub/local.h"]),
              ["drivers/foo/sub/s.c"])
        check("arch by path", [verify.arch_for(p) for p in
                               ("drivers/s390/x.c", "arch/arm/y.c", "arch/sparc/z.c", "net/a.c")],
              ["s390", "arm", "sparc", None])
        check("cross CC", verify.make_vars(verify.ARCHES["arm64"], "ccache gcc"),
              ["ARCH=arm64", "CROSS_COMPILE=aarch64-linux-gnu-", "CC=ccache aarch64-linux-gnu-gcc"])

        # The converted copy: hard links broken for patched files, refresh on change.
        def diff(path: str, old: str, new: str) -> str:
            return (f"diff -u a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n"
                    f"@@ -1 +1 @@\n-{old}+{new}")
        src = Path(tmp) / "build/src-converted"
        patch = Path(tmp) / "all.patch"
        patch.write_text(diff("drivers/foo/priv.h", "struct p;\n", "struct p2;\n") +
                         diff("include/linux/pub.h", "struct q;\n", "struct q2;\n"))
        verify.prepare_converted(k, patch, src, lambda m: None)
        check("patched file has its own inode",
              os.stat(src / "drivers/foo/priv.h").st_ino != os.stat(k / "drivers/foo/priv.h").st_ino,
              True)
        check("KDIR unchanged", (k / "drivers/foo/priv.h").read_text(), "struct p;\n")
        check("unpatched file is a hard link",
              os.stat(src / "drivers/foo/a.c").st_ino == os.stat(k / "drivers/foo/a.c").st_ino, True)
        old_m = 1_000_000.0
        os.utime(src / "include/linux/pub.h", (old_m, old_m))
        patch.write_text(diff("include/linux/pub.h", "struct q;\n", "struct q2;\n"))
        verify.prepare_converted(k, patch, src, lambda m: None)
        check("dropped from the patch: back to pristine", (src / "drivers/foo/priv.h").read_text(),
              "struct p;\n")
        check("same content: mtime kept", os.stat(src / "include/linux/pub.h").st_mtime, old_m)
        logged: list[str] = []
        verify.prepare_converted(k, patch, src, logged.append)
        check("same patch again: nothing touched",
              (logged, os.stat(src / "include/linux/pub.h").st_mtime), ([], old_m))
    # --pristine failed: an object that built converted has no pristine
    # build; its record keeps the schema's values and says so.
    oc = verify.Outcome(objects={
        "d/a.c": verify.ObjResult("x86_64", "skipped", "ok"),
        "d/b.c": verify.ObjResult("x86_64", "ok", "error", "b.c:1: error: x"),
        "d/c.c": verify.ObjResult("x86_64", "error", "error", "c.c:1: error: y")},
        not_built={"d/n.c": ["x86_64"]})
    bs = verify.file_builds({"d/a.c": {"d/a.c"}, "d/b.c": {"d/b.c"}, "d/c.c": {"d/c.c"},
                             "d/n.c": {"d/n.c"}}, oc)
    check("pristine not compiled: schema values", {f: (b["pristine"], b["converted"])
                                                   for f, b in bs.items()},
          {"d/a.c": ("not-built", "ok"), "d/b.c": ("ok", "error"),
           "d/c.c": ("error", "error"), "d/n.c": ("not-built", "not-built")})
    check("pristine not compiled: said", (bs["d/a.c"].get("pristine_compiled"),
                                          "not compiled" in bs["d/a.c"]["log"]), (False, True))
    check("built on some arch", sorted(f for f, b in bs.items() if verify.built(b)),
          ["d/a.c", "d/b.c", "d/c.c"])
    check("regressions", verify.regressions(bs), ["d/b.c"])
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
