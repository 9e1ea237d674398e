# SPDX-License-Identifier: GPL-2.0-only
"""The drvdata fold of a mirror callback (legacy_data.drvdata_read): the
device the callback was given is used only to look up its drvdata, which
the init's own function had set to the tasklet's container before the
init, and nothing else sets: the callback takes from_work() instead.
Anything less certain keeps the device, read back from its member."""

import unittest

from detasklet.convert.facts.legacy_local import locals_for
from detasklet.ctext.lex import mask

HEAD = """struct core { struct device *device; int n; struct tasklet_struct t; };
"""
CB = """static void cb(unsigned long d)
{
	struct device *dev = (struct device *)d;
	struct core *c = dev_get_drvdata(dev);

	pr_debug("%d", c->n);
}
"""
SET = "\tdev_set_drvdata(dev, c);\n"
STORE_INIT = "\tc->device = dev;\n\ttasklet_init(&c->t, cb, (unsigned long)dev);\n"


def drvdata(body: str, cb: str = CB, more: str = "") -> str:
    """'mirror:<drvdata pointer>' ('mirror:' when the device stays)."""
    code = mask(HEAD + cb + more + "static int probe(struct device *dev, struct core *c)\n{\n"
                + body + "\treturn 0;\n}\n")
    got, _ = locals_for({"a.c": code}, {})
    return got["cb"].kind + ":" + got["cb"].drvdata


class Drvdata(unittest.TestCase):
    def test_set_before_the_init(self) -> None:
        self.assertEqual(drvdata(SET + "\tc->n = 1;\n" + STORE_INIT), "mirror:c")

    def test_set_after_the_init(self) -> None:
        self.assertEqual(drvdata(STORE_INIT + SET), "mirror:")

    def test_set_in_a_block(self) -> None:
        self.assertEqual(drvdata("\tif (c->n) {\n\t" + SET + "\t}\n" + STORE_INIT), "mirror:")

    def test_set_under_an_unbraced_if(self) -> None:
        self.assertEqual(drvdata("\tif (c->n)\n\t" + SET + STORE_INIT), "mirror:")

    def test_container_changed_in_between(self) -> None:
        self.assertEqual(drvdata(SET + "\tc = other;\n" + STORE_INIT), "mirror:")

    def test_label_in_between(self) -> None:
        self.assertEqual(drvdata(SET + "again:\n\tc->n = 1;\n" + STORE_INIT), "mirror:")

    def test_set_again_elsewhere(self) -> None:
        more = "static void resume(struct device *d) { dev_set_drvdata(d, NULL); }\n"
        self.assertEqual(drvdata(SET + STORE_INIT, more=more), "mirror:")

    def test_set_to_another_object(self) -> None:
        self.assertEqual(drvdata("\tdev_set_drvdata(dev, c->priv);\n" + STORE_INIT), "mirror:")

    def test_device_used_again(self) -> None:
        cb = CB.replace("\tpr_debug(\"%d\", c->n);", "\tdev_dbg(dev, \"%d\", c->n);")
        self.assertEqual(drvdata(SET + STORE_INIT, cb), "mirror:")

    def test_drvdata_of_another_type(self) -> None:
        cb = CB.replace("struct core *c = dev_get_drvdata(dev);",
                        "struct other *c = dev_get_drvdata(dev);")
        self.assertEqual(drvdata(SET + STORE_INIT, cb), "mirror:")


if __name__ == "__main__":
    unittest.main()
