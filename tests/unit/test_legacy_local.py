# SPDX-License-Identifier: GPL-2.0-only
"""The mirror form of a legacy callback's data: the value the init's own
function had just stored in a member of the container, which nothing else
writes, is read back from that member; anything less certain keeps the
data field."""

import unittest

from detasklet.convert.facts.legacy_local import locals_for
from detasklet.ctext.lex import mask

HEAD = """struct host;
struct slot { struct host *host; int n; struct tasklet_struct t; };
static void cb(unsigned long d) { pr_debug("%lx", d); }
"""


def kind(body: str, more: str = "") -> str:
    code = mask(HEAD + more + "static int probe(struct slot *s, struct host *h)\n{\n"
                + body + "\treturn 0;\n}\n")
    got, why = locals_for({"a.c": code}, {})
    return got["cb"].kind + (":" + got["cb"].mirror if got["cb"].mirror else "")


INIT = "\ttasklet_init(&s->t, cb, (unsigned long)h);\n"


class Mirror(unittest.TestCase):
    def test_stored_just_before(self) -> None:
        self.assertEqual(kind("\ts->host = h;\n\ts->n = 1;\n" + INIT), "mirror:host")

    def test_stored_after_the_init(self) -> None:
        self.assertEqual(kind(INIT + "\ts->host = h;\n"), "field")

    def test_stored_under_an_unbraced_if(self) -> None:
        self.assertEqual(kind("\tif (s->n)\n\t\ts->host = h;\n" + INIT), "field")

    def test_stored_in_another_block(self) -> None:
        self.assertEqual(kind("\tif (s->n) {\n\t\ts->host = h;\n\t}\n" + INIT), "field")

    def test_value_changed_in_between(self) -> None:
        self.assertEqual(kind("\ts->host = h;\n\th = NULL;\n" + INIT), "field")

    def test_member_written_elsewhere(self) -> None:
        other = "static void swap(struct slot *p) { p->host = NULL; }\n"
        self.assertEqual(kind("\ts->host = h;\n" + INIT, other), "field")

    def test_member_address_taken(self) -> None:
        other = "static void swap(struct slot *p) { xchg(&p->host, NULL); }\n"
        self.assertEqual(kind("\ts->host = h;\n" + INIT, other), "field")

    def test_same_name_in_another_struct(self) -> None:
        other = ("struct req { struct host *host; };\n"
                 "static void bind(struct req *r, struct host *h) { r->host = h; }\n")
        self.assertEqual(kind("\ts->host = h;\n" + INIT, other), "mirror:host")


if __name__ == "__main__":
    unittest.main()
