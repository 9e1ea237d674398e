# SPDX-License-Identifier: GPL-2.0-only
"""convert.facts.per_vector: which tasklet arrays are per-vector, and the patch."""

from __future__ import annotations

import unittest

from detasklet.convert.facts.per_vector import PerVector, find
from detasklet.ctext.lex import mask

H = """struct vec {
	int id;
};
struct hba {
	struct tasklet_struct tasklet[NVEC];
	struct vec irq_vector[NVEC];
};
"""
C = """static void init(struct hba *h)
{
	for (i = 0; i < NVEC; i++)
		tasklet_init(&h->tasklet[i], cb, (unsigned long)&(h->irq_vector[i]));
}
static void irq(struct hba *h, int n)
{
	tasklet_schedule(&h->tasklet[n]);
}
"""


def found(h: str = H, c: str = C) -> list[PerVector]:
    return find({"a.h": mask(h), "a.c": mask(c)})


class Find(unittest.TestCase):
    def test_pairs(self) -> None:
        self.assertEqual(found(), [PerVector("struct hba", "tasklet", "NVEC", "irq_vector",
                                             "struct vec")])

    def test_other_index(self) -> None:
        self.assertEqual(found(c=C.replace("irq_vector[i]", "irq_vector[i + 1]")), [])

    def test_other_size(self) -> None:
        self.assertEqual(found(h=H.replace("irq_vector[NVEC]", "irq_vector[NVEC + 1]")), [])

    def test_unindexed_use(self) -> None:
        self.assertEqual(found(c=C + "int n = ARRAY_SIZE(h->tasklet);\n"), [])

    def test_vector_struct_not_in_the_group(self) -> None:
        self.assertEqual(found(h=H.replace("struct vec {\n\tint id;\n};\n", "")), [])

    def test_one_init_with_other_data(self) -> None:
        self.assertEqual(found(c=C + "void x(struct hba *h)\n{\n\ttasklet_init(&h->tasklet[0], "
                                     "cb, (unsigned long)h);\n}\n"), [])

    def test_the_patch_names_the_facts(self) -> None:
        text = found()[0].cocci()
        self.assertIn("- H->tasklet[I]\n+ H->irq_vector[I].tasklet\n", text)
        self.assertIn("- struct tasklet_struct t[NVEC];", text)
        self.assertIn("struct vec {\n+ struct tasklet_struct tasklet;\n", text)


if __name__ == "__main__":
    unittest.main()
