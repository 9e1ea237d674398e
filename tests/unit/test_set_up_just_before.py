# SPDX-License-Identifier: GPL-2.0-only
"""ctext.tasklet.set_up_just_before: a disable whose statements before it,
back to the item's init, are only tasklet inits and disables."""

import unittest

from detasklet.ctext.lex import mask
from detasklet.ctext.tasklet import set_up_just_before

CODE = mask("""\
static int f(struct q *q)
{
\tint err;

\ttasklet_setup(&q->a, a_cb);
\ttasklet_init(&q->b, b_cb, (unsigned long)q);
\ttasklet_disable(&q->a);
\ttasklet_disable(&q->b);
\terr = request_irq(q->irq, q_irq, 0, "q", q);
\ttasklet_disable(&q->a);
\treturn err;
}
""")


class SetUpJustBefore(unittest.TestCase):
    def test_inits_and_disables_between(self) -> None:
        self.assertTrue(set_up_just_before(CODE, 7, "a"))
        self.assertTrue(set_up_just_before(CODE, 8, "b"))

    def test_a_call_between(self) -> None:
        # request_irq() may queue it before the second disable of a
        self.assertFalse(set_up_just_before(CODE, 10, "a"))

    def test_no_init_of_the_item(self) -> None:
        self.assertFalse(set_up_just_before(CODE, 7, "c"))


if __name__ == "__main__":
    unittest.main()
