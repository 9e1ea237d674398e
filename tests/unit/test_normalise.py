# SPDX-License-Identifier: GPL-2.0-only
"""convert.facts.normalise: the open-coded init and the logged state word."""

from __future__ import annotations

import unittest

from detasklet.convert.facts.normalise import logged_states, open_coded_inits

INIT = """static void setup(struct card *card)
{
	card->rd.bh.data = (unsigned long) &card->rd;
	card->rd.bh.func = rd_bh;
}
"""


class OpenCodedInit(unittest.TestCase):
    def test_pair_becomes_tasklet_init(self) -> None:
        text, notes = open_coded_inits(INIT, {"bh"})
        self.assertIn("\ttasklet_init(&card->rd.bh, rd_bh, (unsigned long) &card->rd);\n",
                      text)
        self.assertNotIn(".func", text)
        self.assertEqual(len(notes), 1)
        self.assertIn("in setup() by assigning .func and .data", notes[0])

    def test_not_a_tasklet_of_the_group(self) -> None:
        self.assertEqual(open_coded_inits(INIT, {"other"}), (INIT, []))

    def test_something_between_is_not_one_init(self) -> None:
        text = INIT.replace("\tcard->rd.bh.func", "\tcard->rd.x = 1;\n\tcard->rd.bh.func")
        self.assertEqual(open_coded_inits(text, {"bh"}), (text, []))

    def test_different_tasklets_are_not_one_init(self) -> None:
        text = INIT.replace("rd.bh.func", "wr.bh.func")
        self.assertEqual(open_coded_inits(text, {"bh"}), (text, []))

    def test_two_functions_one_note(self) -> None:
        text = INIT + INIT.replace("setup(", "setup2(")
        _, notes = open_coded_inits(text, {"bh"})
        self.assertEqual(len(notes), 1)
        self.assertIn("tasklets were set up in setup() and setup2()", notes[0])

    def test_cast_callback_of_its_own_address_is_setup(self) -> None:
        text = ("static void cb(struct tasklet_struct *t)\n{\n}\n\n"
                "static void init(struct rx *rx)\n{\n"
                "\trx->t.func = (void (*)) cb;\n"
                "\trx->t.data = (unsigned long)&rx->t;\n}\n")
        new, notes = open_coded_inits(text, {"t"})
        self.assertIn("\ttasklet_setup(&rx->t, cb);\n", new)
        self.assertIn("cb() takes a pointer to the tasklet", notes[0])
        # the cast as written: (void (*)) is a cast to void *, not to the
        # callback type (the final read of round 42, zd1211rw)
        self.assertIn("through a (void (*)) cast", notes[0])
        self.assertNotIn("was cast to the callback type", notes[0])

    def test_cast_callback_of_another_pointer_stays(self) -> None:
        text = ("static void cb(struct tasklet_struct *t)\n{\n}\n\n"
                "static void init(struct rx *rx)\n{\n"
                "\trx->t.func = (void (*)) cb;\n"
                "\trx->t.data = (unsigned long)rx;\n}\n")
        self.assertEqual(open_coded_inits(text, {"t"}), (text, []))


class LoggedState(unittest.TestCase):
    def test_log_argument_reads_work_busy(self) -> None:
        text = ("static void dump(struct eq *eq)\n{\n"
                "\tpr_err(\"state %lx\\n\", eq->bh.state);\n}\n")
        new, notes = logged_states(text, {"bh"})
        self.assertIn("pr_err(\"state %lx\\n\", (unsigned long)work_busy(&eq->bh));", new)
        self.assertIn("dump() printed the tasklet's state word", notes[0])

    def test_state_in_an_expression_stays(self) -> None:
        text = ("static void dump(struct eq *eq)\n{\n"
                "\tpr_err(\"%d\\n\", eq->bh.state & 1);\n}\n")
        self.assertEqual(logged_states(text, {"bh"}), (text, []))

    def test_state_outside_a_log_call_stays(self) -> None:
        text = "static int busy(struct eq *eq)\n{\n\treturn f(eq->bh.state);\n}\n"
        self.assertEqual(logged_states(text, {"bh"}), (text, []))


if __name__ == "__main__":
    unittest.main()
