# SPDX-License-Identifier: GPL-2.0-only
"""A file whose only tasklet API is a dead forward declaration: the
declaration goes, in a patch that says so."""

import unittest

from detasklet.ctext.gitdiff import file_diff, parse
from detasklet.ctext.tasklet import only_forward_declared
from detasklet.series import message, plan
from detasklet.series.evidence import Evidence

OLD = "struct pt_regs;\nstruct tasklet_struct;\nstruct task_struct;\n"


class Unused(unittest.TestCase):
    def test_only_forward_declared(self) -> None:
        self.assertTrue(only_forward_declared(OLD))
        self.assertFalse(only_forward_declared(OLD + "void f(struct tasklet_struct *t);\n"))
        self.assertFalse(only_forward_declared("/* struct tasklet_struct; */\n"))

    def test_patch_of_a_deletion_is_named_for_it(self) -> None:
        fd = parse(file_diff("include/linux/dbg.h", OLD, OLD.replace("struct tasklet_struct;\n", "")))
        self.assertTrue(plan.only_deletes_declarations(fd))
        p = plan.Patch(["include/linux/dbg.h"], prefix="dbg", unused_only=True)
        self.assertEqual(p.subject, "dbg: Remove unused struct tasklet_struct declaration")
        body = message.unused_body(fd, Evidence({}))
        self.assertIn("include/linux/dbg.h declares struct tasklet_struct, but nothing in", body)

    def test_a_dead_member_and_its_kernel_doc(self) -> None:
        old = ("/**\n * struct c - a channel\n * @t: its bottom half,\n *\tonce per irq\n"
               " * @n: slots\n */\nstruct c {\n\tstruct tasklet_struct t;\n\tint n;\n};\n")
        new = old.replace(" * @t: its bottom half,\n *\tonce per irq\n", "").replace(
            "\tstruct tasklet_struct t;\n", "")
        fd = parse(file_diff("include/linux/c.h", old, new))
        self.assertTrue(plan.only_deletes_declarations(fd))
        body = message.unused_body(fd, Evidence({}))
        # true of a header nothing includes and of a member nothing names alike
        self.assertIn("declares the struct tasklet_struct member t, but no code of the tree "
                      "names it (a header nothing includes, or a member nothing sets up, "
                      "queues or reads)", " ".join(body.split()))
        # a kernel-doc line alone is not a dead declaration
        fd = parse(file_diff("c.h", old, old.replace(" *\tonce per irq\n", "")))
        self.assertFalse(plan.only_deletes_declarations(fd))

    def test_a_conversion_is_not_a_deletion(self) -> None:
        fd = parse(file_diff("a.h", OLD, OLD.replace("tasklet_struct", "work_struct")))
        self.assertFalse(plan.only_deletes_declarations(fd))


if __name__ == "__main__":
    unittest.main()
