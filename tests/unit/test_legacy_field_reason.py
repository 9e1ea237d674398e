# SPDX-License-Identifier: GPL-2.0-only
"""Why a legacy callback's data keeps its new field, in the driver's terms
(legacy_data.field_reason, the data bullet of the patch): the container
has no member of the data's type, or the data was a member of the
container that the driver changes later; nothing when neither is shown."""

import unittest

from detasklet.convert.facts.legacy_local import locals_for
from detasklet.ctext.lex import mask

CB = """static void cb(unsigned long data)
{
	struct req *rq = (struct req *)data;

	pr_debug("%p", rq);
}
"""


def need(struct: str, body: str, more: str = "") -> str:
    code = mask(struct + CB + more + "static int probe(struct term *tp, struct req *rq)\n{\n"
                + body + "\treturn 0;\n}\n")
    got, _ = locals_for({"a.c": code}, {})
    return got["cb"].kind + ": " + got["cb"].need


class FieldReason(unittest.TestCase):
    def test_no_member_of_that_type(self) -> None:
        self.assertEqual(
            need("struct term { int n; struct tasklet_struct t; };\n",
                 "\ttasklet_init(&tp->t, cb, (unsigned long)rq);\n"),
            "field: struct term, which holds the work item, has no member that points to a "
            "struct req")

    def test_member_changed_later(self) -> None:
        more = "static void swap(struct term *tp) { xchg(&tp->read, NULL); }\n"
        self.assertEqual(
            need("struct term { struct req *read; struct tasklet_struct t; };\n",
                 "\ttp->read = rq;\n\ttasklet_init(&tp->t, cb, (unsigned long)tp->read);\n",
                 more),
            "field: it is the value tp->read had at tasklet_init(), and the driver changes "
            "read later (it is written in more than one place)")

    def test_member_of_that_type_written_once(self) -> None:
        self.assertEqual(
            need("struct term { struct req *last; struct tasklet_struct t; };\n",
                 "\ttasklet_init(&tp->t, cb, (unsigned long)rq);\n\ttp->last = rq;\n"),
            "field: ")


if __name__ == "__main__":
    unittest.main()
