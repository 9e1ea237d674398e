# SPDX-License-Identifier: GPL-2.0-only
"""check.compile_test and check.arches: the build records and the arches."""

import json
import os
import tempfile
import unittest
from unittest import mock
from pathlib import Path

from detasklet.check import compile_test as ct, make
from detasklet.check.arches import ARCHES, arch_for, make_vars


class Records(unittest.TestCase):
    # --pristine failed: an object that built converted has no pristine
    # build; its record keeps the schema's values and says so.
    RUN = ct.Run(objects={
        "d/a.c": ct.ObjResult("x86_64", "skipped", "ok"),
        "d/b.c": ct.ObjResult("x86_64", "ok", "error", "b.c:1: error: x"),
        "d/c.c": ct.ObjResult("x86_64", "error", "error", "c.c:1: error: y")},
        not_built={"d/n.c": ["x86_64"]})
    BUILDS = ct.file_builds({f: {f} for f in ("d/a.c", "d/b.c", "d/c.c", "d/n.c")}, RUN)

    def test_schema_values(self) -> None:
        self.assertEqual({f: (b["pristine"], b["converted"]) for f, b in self.BUILDS.items()},
                         {"d/a.c": ("not-built", "ok"), "d/b.c": ("ok", "error"),
                          "d/c.c": ("error", "error"), "d/n.c": ("not-built", "not-built")})

    def test_pristine_not_compiled_is_said(self) -> None:
        self.assertIs(self.BUILDS["d/a.c"].get("pristine_compiled"), False)
        self.assertIn("not compiled", self.BUILDS["d/a.c"]["log"])

    def test_built_and_regressions(self) -> None:
        self.assertEqual(sorted(f for f, b in self.BUILDS.items() if ct.built(b)),
                         ["d/a.c", "d/b.c", "d/c.c"])
        self.assertEqual(ct.regressions(self.BUILDS), ["d/b.c"])


class Arches(unittest.TestCase):
    def test_arch_by_path(self) -> None:
        self.assertEqual([arch_for(p) for p in ("drivers/s390/x.c", "arch/arm/y.c",
                                                "arch/sparc/z.c", "net/a.c")],
                         ["s390", "arm", "sparc", None])

    def test_cross_cc(self) -> None:
        self.assertEqual(make_vars(ARCHES["arm64"], "ccache gcc"),
                         ["ARCH=arm64", "CROSS_COMPILE=aarch64-linux-gnu-",
                          "CC=ccache aarch64-linux-gnu-gcc"])


class PartRuns(unittest.TestCase):
    """A compile-test of some files (--files) keeps the records of the
    others when an earlier run made them from the same converted tree, so
    a whole-tree compile-test can run in parts; one of another patch goes."""

    REC = {"arch": "x86_64", "config": "allmodconfig", "pristine": "not-built",
           "converted": "ok", "log": ""}

    def test_the_same_trees_records_are_kept(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            files = [{"path": p, "status": "converted"} for p in ("d/a.c", "d/b.c", "d/c.h")]
            (out / "report.json").write_text(json.dumps({"files": files}))
            ct.record(out, {"d/a.c": self.REC, "d/c.h": self.REC}, ["## Build", ""], "T1")
            report = json.loads((out / "report.json").read_text())
            self.assertEqual(report["build_tree"], "T1")
            self.assertEqual(ct.earlier(report, "T1", ["d/b.c"]),
                             {"d/a.c": self.REC, "d/c.h": self.REC})
            # the file this run builds gets its new record, not the old one
            self.assertEqual(list(ct.earlier(report, "T1", ["d/a.c"])), ["d/c.h"])
            self.assertEqual(ct.earlier(report, "T2", ["d/b.c"]), {})

    def test_a_report_without_a_tree_keeps_nothing(self) -> None:
        report = {"files": [{"path": "d/a.c", "status": "converted", "build": self.REC}]}
        self.assertEqual(ct.earlier(report, "T1", ["d/b.c"]), {})


class BuildFolder(unittest.TestCase):
    """check.make.claim: a build folder holds one kernel version's build."""

    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.b = Path(self.tmp.name, "x86_64-converted")
        self.b.mkdir()
        (self.b / "vmlinux.a").write_text("old\n")

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def stamp(self, first: str) -> None:
        (self.b / make.STAMP).write_text(first + "\nARCH=x86_64\n")

    def test_another_versions_folder_is_emptied(self) -> None:
        self.stamp("linux 6.12.118")
        make.claim(self.b, "linux 7.3.4")
        self.assertFalse(self.b.exists())

    def test_the_same_versions_folder_is_kept(self) -> None:
        self.stamp("linux 7.3.4")
        make.claim(self.b, "linux 7.3.4")
        self.assertTrue((self.b / "vmlinux.a").is_file())

    def test_a_folder_without_the_stamp_is_left_alone(self) -> None:
        make.claim(self.b, "linux 7.3.4")
        self.assertTrue((self.b / "vmlinux.a").is_file())
        (self.b / make.STAMP).write_text("ARCH=x86_64\n")   # before versions
        make.claim(self.b, "linux 7.3.4")
        self.assertTrue((self.b / "vmlinux.a").is_file())


class KernelMakeEnvironment(unittest.TestCase):
    """The kernel's make gets none of the flags of a make that runs us:
    `make -j2 -s compile-test LLVM=1` passes -s (no CC lines to read the
    results from), LLVM=1 and its jobserver down in MAKEFLAGS."""

    LEAK = {"MAKEFLAGS": "ks -j2 --jobserver-auth=3,4 -- LLVM=1 OUT=/o",
            "MFLAGS": "-ks -j2 --jobserver-auth=3,4", "MAKELEVEL": "1",
            "MAKEOVERRIDES": "${-*-command-variables-*-}"}

    def test_configure_and_compile_leave_the_callers_flags(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            t = Path(tmp)
            (t / "src").mkdir()
            (t / "src" / "Makefile").write_text("VERSION = 7\nPATCHLEVEL = 3\nSUBLEVEL = 4\n")
            (t / "src" / "include" / "linux").mkdir(parents=True)
            (t / "src" / "include" / "linux" / "workqueue.h").write_text("")
            seen = t / "seen"
            shim = t / "bin" / "make"
            shim.parent.mkdir()
            shim.write_text("#!/bin/sh\necho \"$MAKEFLAGS|$MFLAGS|$MAKELEVEL|$MAKEOVERRIDES\""
                            f" >> {seen}\n")
            shim.chmod(0o755)
            env = {**self.LEAK, "PATH": f"{shim.parent}:{os.environ['PATH']}"}
            with mock.patch.dict(os.environ, env):
                make.configure(t / "src", t / "b", ["ARCH=x86_64"], 2, 0.0)
                make.compile_objects(t / "src", t / "b", ["ARCH=x86_64"], ["d/x.o"], 2, "t")
            calls = seen.read_text().splitlines()
            # allmodconfig, prepare, the objects (again with -j1: none was written)
            self.assertEqual(len(calls), 4, calls)
            self.assertEqual(set(calls), {"|||"})


class RacedObject(unittest.TestCase):
    """An object kbuild compiles twice in one -j2 make (parisc's hil_mlc.o),
    whose two compiles race on its .d file, is made again with -j1: the
    race is not a conversion's error. A real error stays an error."""

    SHIM = """#!/bin/sh
case " $* " in
  *" -j1 "*) for a; do case $a in O=*) b=${a#O=};; *.o) o=$a;; esac; done
           grep -q broken "$b/$o.src" 2>/dev/null && { echo "  CC      $o"; echo "$o.c:1: error: x";
             echo "make[4]: *** [Makefile:1: $o] Error 1"; exit 2; }
           mkdir -p "$(dirname "$b/$o")"; echo "  CC      $o"; : > "$b/$o"; exit 0;;
  *) for a; do case $a in *.o) o=$a;; esac; done
     echo "  CC [M]  $o"; echo "fixdep: error opening file: .x.o.d: No such file or directory"
     echo "make[4]: *** [Makefile:1: $o] Error 2"; exit 2;;
esac
"""

    def test_a_race_is_made_again_a_real_error_stays(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            t = Path(tmp)
            shim = t / "bin" / "make"
            shim.parent.mkdir()
            shim.write_text(self.SHIM)
            shim.chmod(0o755)
            (t / "b" / "d").mkdir(parents=True)
            (t / "b" / "d" / "bad.o.src").write_text("broken\n")
            with mock.patch.dict(os.environ, {"PATH": f"{shim.parent}:{os.environ['PATH']}"}):
                res = make.compile_objects(t, t / "b", ["ARCH=parisc"], ["d/raced.o"], 2, "t")
                bad = make.compile_objects(t, t / "b", ["ARCH=parisc"], ["d/bad.o"], 2, "t")
            self.assertEqual(res, {"d/raced.o": ("ok", "")})
            self.assertEqual(bad["d/bad.o"][0], "error")
            self.assertIn("error: x", bad["d/bad.o"][1])


if __name__ == "__main__":
    unittest.main()
