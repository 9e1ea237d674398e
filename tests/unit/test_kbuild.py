# SPDX-License-Identifier: GPL-2.0-only
"""ctext.kbuild: modules of a folder, and what a .config builds."""

import tempfile
import unittest
from pathlib import Path

from detasklet.ctext import kbuild
from fixtures import KBUILD_TREE, write_tree

CFG = {"CONFIG_FOO": "y", "CONFIG_FOO_A": "m", "CONFIG_X": "y", "CONFIG_HV": "m"}


class Modules(unittest.TestCase):
    def test_composite_objects(self) -> None:
        m = kbuild.modules("dasd_mod-objs := dasd.o dasd_ioctl.o \\\n\tdasd_proc.o\n"
                           "obj-$(CONFIG_DASD) += dasd_mod.o\nobj-y += other.o\n")
        self.assertEqual(m, {"dasd": "dasd_mod", "dasd_ioctl": "dasd_mod",
                             "dasd_proc": "dasd_mod", "dasd_mod": "dasd_mod", "other": "other"})

    def test_a_list_added_by_reference(self) -> None:
        # i915's Makefile: gt-y lists objects that i915-y takes as $(gt-y);
        # gt is no module of its own (its files are i915's)
        m = kbuild.modules("gt-y += gt/intel_engine_cs.o \\\n\tgt/uc/intel_guc_ct.o\n"
                           "i915-y += i915_scheduler.o\ni915-y += $(gt-y)\n"
                           "ccflags-y += -I$(src)\nobj-$(CONFIG_DRM_I915) += i915.o\n")
        self.assertEqual(m["gt/intel_engine_cs"], "i915")
        self.assertEqual(m["gt/uc/intel_guc_ct"], "i915")
        self.assertEqual(m["i915_scheduler"], "i915")

    def test_any_condition_spelling(self) -> None:
        m = kbuild.modules("obj-${CONFIG_A} += a.o\nobj-$(subst m,y,$(CONFIG_B)) += b.o\n")
        self.assertEqual(m, {"a": "a", "b": "b"})


class Enablement(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        cls.k = write_tree(Path(cls.tmp.name), KBUILD_TREE)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def test_objects_under_one_config(self) -> None:
        en = kbuild.Enablement(self.k, CFG, "x86_64")
        for obj, want in [("drivers/foo/a.o", True), ("drivers/foo/b.o", False),
                          ("drivers/foo/z.o", False), ("drivers/foo/notz.o", True),
                          ("drivers/foo/x1.o", True), ("drivers/foo/sub/s.o", True),
                          ("drivers/bar/bar.o", True), ("drivers/off/o.o", False),
                          ("drivers/foo/nowhere.o", None), ("drivers/hv/vmbus_drv.o", True)]:
            with self.subTest(obj=obj):
                self.assertEqual(en.listed(obj), want)

    def test_a_folder_not_descended_into(self) -> None:
        en = kbuild.Enablement(self.k, {"CONFIG_FOO_A": "y"}, "x86_64")
        self.assertFalse(en.listed("drivers/foo/a.o"))


if __name__ == "__main__":
    unittest.main()
