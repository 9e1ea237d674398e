# SPDX-License-Identifier: GPL-2.0-only
"""ctext.layout: the changed lines in kernel style, whitespace only."""

import unittest

from detasklet.ctext import layout


class Tidy(unittest.TestCase):
    def test_continuation_follows_its_parenthesis(self) -> None:
        old = "\ttasklet_init(&p->t, cb,\n\t\t     (unsigned long)p);\n"
        new = "\tINIT_WORK(&p->t, cb,\n\t\t     (unsigned long)p);\n"
        self.assertEqual(layout.tidy(old, new), "\tINIT_WORK(&p->t, cb,\n\t\t  (unsigned long)p);\n")

    def test_indent_in_tabs_and_function_pointer(self) -> None:
        old = "        struct tasklet_struct t;\n\tvoid (*cb) (unsigned long d);\n"
        new = "        struct work_struct t;\n\tvoid (*cb) (struct work_struct *work);\n"
        self.assertEqual(layout.tidy(old, new),
                         "\tstruct work_struct t;\n\tvoid (*cb)(struct work_struct *work);\n")

    def test_long_line_wrapped_after_a_comma(self) -> None:
        line = ("\t\t\tqueue_work(system_bh_highpri_wq, "
                "&some->very_long_structure_name[index].member_field_tasklet);\n")
        got = layout.tidy("\t\t\tx;\n", line)
        parts = got.splitlines()
        self.assertEqual(len(parts), 2)
        self.assertLessEqual(max(layout.width(p) for p in parts), layout.MAX_COLS)
        self.assertEqual(layout.width(layout.indent_of(parts[1])),
                         layout.width("\t\t\tqueue_work("))
        self.assertEqual(layout.tidy("\t\t\tx;\n", got), got)

    def test_unchanged_lines_stay(self) -> None:
        old = "        int keep;\n\ttasklet_schedule(&t);\n"
        new = "        int keep;\n\tqueue_work(system_bh_wq, &t);\n"
        self.assertEqual(layout.tidy(old, new), new)

    def test_four_space_file_gets_a_tab_per_level(self) -> None:
        old = "{\n    int a;\n    tasklet_schedule(&t);\n    if (a)\n        tasklet_kill(&t);\n}\n"
        new = "{\n    int a;\n    queue_work(system_bh_wq, &t);\n    if (a)\n        cancel_work_sync(&t);\n}\n"
        want = "{\n    int a;\n\tqueue_work(system_bh_wq, &t);\n    if (a)\n\t\tcancel_work_sync(&t);\n}\n"
        self.assertEqual(layout.tidy(old, new), want)

    def test_parenthesis_in_a_literal_is_not_code(self) -> None:
        self.assertEqual(layout.open_paren_col('\tf(a, "(", b'), 9)
        self.assertIsNone(layout.open_paren_col("\tf(a); /* ( */"))


if __name__ == "__main__":
    unittest.main()
