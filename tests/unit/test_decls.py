# SPDX-License-Identifier: GPL-2.0-only
"""ctext.decls.base_struct: the struct of the object of a member
expression, from its declaration in the function (a parameter or a
local, the last before the place); "" when the object is no plain name
or is not declared a struct there."""

import unittest

from detasklet.ctext.decls import base_struct
from detasklet.ctext.lex import mask

CODE = mask("""\
struct a *g;
static void f(struct b *p, int n)
{
	struct c s;
	struct d *q = p->q;

	use(&p->t, &s.t, &q->t, &g->t, &p->chan[n].t);
}
""")
AT = CODE.index("use(")


class BaseStruct(unittest.TestCase):
    def test_parameter_local_and_value(self) -> None:
        self.assertEqual(base_struct(CODE, AT, "&p->t"), "struct b")
        self.assertEqual(base_struct(CODE, AT, "&s.t"), "struct c")
        self.assertEqual(base_struct(CODE, AT, "&q->t"), "struct d")

    def test_not_known(self) -> None:
        self.assertEqual(base_struct(CODE, AT, "&g->t"), "")          # not in the function
        self.assertEqual(base_struct(CODE, AT, "&p->chan[n].t"), "")  # no plain name
        self.assertEqual(base_struct(CODE, 0, "&p->t"), "")           # in no function

    def test_a_type_name_ending_in_the_object_name(self) -> None:
        # zfcp (sample 48): kzalloc_obj(struct zfcp_qdio) is no declaration
        # of qdio as a struct zfcp_
        code = mask("static int f(void)\n{\n\tstruct zfcp_qdio *qdio;\n\n"
                    "\tqdio = kzalloc_obj(struct zfcp_qdio);\n\tuse(&qdio->t);\n}\n")
        self.assertEqual(base_struct(code, code.index("use("), "&qdio->t"), "struct zfcp_qdio")


if __name__ == "__main__":
    unittest.main()
