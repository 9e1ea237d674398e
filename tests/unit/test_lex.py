# SPDX-License-Identifier: GPL-2.0-only
"""ctext.lex: the one masker and the item splitter."""

import unittest

from detasklet.ctext import lex

SNIPPET = """\
#include <linux/x.h>

/*
 * Tasklets
 */
struct tasklet_head {
	struct tasklet_struct *head;
};

#if defined(CONFIG_SMP)
void tasklet_unlock(struct tasklet_struct *t)
{
	clear_bit(TASKLET_STATE_RUN, &t->state);
}
#else
static inline void tasklet_unlock(struct tasklet_struct *t) { }
#endif

static int keep_me(int a)
{
	if (a) {
		return 1;
	} else {
		return 2;
	}
}
"""


class Mask(unittest.TestCase):
    TEXT = 'a = f("x(y", \'"\'); /* tasklet_kill()\n */ b; // c\n'

    def test_same_length_and_newlines(self) -> None:
        m = lex.mask(self.TEXT)
        self.assertEqual(len(m), len(self.TEXT))
        self.assertEqual([i for i, c in enumerate(m) if c == "\n"],
                         [i for i, c in enumerate(self.TEXT) if c == "\n"])

    def test_comments_and_literal_contents_blank(self) -> None:
        self.assertEqual(lex.mask(self.TEXT), 'a = f("   ", \' \');' + ' ' * 18 + '\n    b;     \n')

    def test_unterminated_comment_runs_to_the_end(self) -> None:
        self.assertEqual(lex.mask("f(a, /* b, c"), "f(a,        ")

    def test_prose(self) -> None:
        self.assertTrue(lex.has_prose('#define A "x"'))
        self.assertFalse(lex.has_prose("#define A(x) f(x)"))

    def test_sub_code_leaves_prose(self) -> None:
        import re
        got = lex.sub_code(re.compile(r"\bold\b"), "new", 'old("old"); /* old */ old;')
        self.assertEqual(got, 'new("old"); /* old */ new;')

    def test_line_of(self) -> None:
        self.assertEqual(lex.line_of("a\nb\nc", 4), 3)


class Items(unittest.TestCase):
    def test_whole_lines_nothing_lost(self) -> None:
        self.assertEqual(lex.join(lex.items(SNIPPET)), SNIPPET)

    def test_kinds(self) -> None:
        self.assertEqual([p.kind for p in lex.items(SNIPPET)],
                         ["pp", "blank", "comment", "code", "blank", "pp", "code", "pp", "code",
                          "pp", "blank", "code"])

    def test_unbalanced_is_an_error(self) -> None:
        with self.assertRaises(ValueError):
            lex.items("void f(void)\n{\n")

    def test_functions_kernel_style(self) -> None:
        code = lex.mask("static void f(int a)\n{\n\tg(a);\n}\n")
        self.assertEqual(lex.functions(code), {"f": "{\n\tg(a);\n}"})

    def test_two_heads_under_if_else_count_once(self) -> None:
        # dahdi's xbus-core.c: one body, a head for each kernel version
        code = lex.mask("#if V\nstatic void f(struct w *w)\n{\n\tint a;\n#else\n"
                        "void f(void *d)\n{\n#endif\n\tg();\n}\n\n"
                        "void h(void)\n{\n\tk();\n}\n")
        self.assertEqual([n for _, _, n in lex.function_spans(code)], ["f", "h"])

    def test_whole_definitions_under_if_else_kept(self) -> None:
        code = lex.mask("#ifdef T\nstatic void a(void)\n{\n}\n#else\n"
                        "static void b(void)\n{\n\tif (x) {\n\t}\n}\n#endif\n")
        self.assertEqual([n for _, _, n in lex.function_spans(code)], ["a", "b"])


if __name__ == "__main__":
    unittest.main()
