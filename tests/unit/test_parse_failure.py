# SPDX-License-Identifier: GPL-2.0-only
"""Code spatch could not parse: the lines it skipped, read from its
--verbose-parsing stderr (convert.rewrite.skipped), and the tasklet uses
inside them (convert.rewrite.classify.blind), which keep a file unconverted."""

import unittest

from detasklet.convert.rewrite.classify import blind, parse_note
from detasklet.convert.rewrite.spatch import Result, skipped

TEXT = """\
#include <linux/interrupt.h>

struct pf_dev {
\tstruct tasklet_struct rx_tasklet;
};

static int pf_debug_show(struct pf_dev *pf)
{
\tstruct tasklet_struct *t = &pf->rx_tasklet;

\tif (( {
\t\treturn t != NULL;
}

static void pf_probe(struct pf_dev *pf)
{
\ttasklet_setup(&pf->rx_tasklet, pf_rx);
}
"""

# spatch 1.1.1's words for TEXT, as --verbose-parsing prints them
STDERR = """\
PARSING: pf.c
ERROR-RECOV: found sync '}' at line 13
parsing pass2: try again
parse error
 = File "pf.c", line 15, column 0, charpos = 230
  around = 'static',
  whole content = static void pf_probe(struct pf_dev *pf)
badcount: 7
bad: };
bad: 
bad: static int pf_debug_show(struct pf_dev *pf)
bad: {
bad: \tstruct tasklet_struct *t = &pf->rx_tasklet;
bad: 
bad: \tif (( {
bad: \t\treturn t != NULL;
bad: }
-----------------------------------------------------------------------
"""


class Skipped(unittest.TestCase):
    def test_the_bad_lines_are_found_in_the_text(self) -> None:
        self.assertEqual(skipped(STDERR, TEXT), ((5, 13),))

    def test_no_bad_lines_is_the_error_line(self) -> None:
        err = 'parse error\n = File "pf.c", line 11, column 1\n'
        self.assertEqual(skipped(err, TEXT), ((11, 11),))

    def test_no_parse_error(self) -> None:
        self.assertEqual(skipped("PARSING: pf.c\n", TEXT), ())


class Blind(unittest.TestCase):
    def test_a_use_in_skipped_code(self) -> None:
        self.assertEqual(blind(TEXT, ((5, 13),)), ["tasklet_struct at line 9"])

    def test_uses_outside_are_not(self) -> None:
        self.assertEqual(blind(TEXT, ((11, 11),)), [])

    def test_a_struct_member_is_not_in_a_function(self) -> None:
        # jme.h's shape: a struct spatch cannot parse; its member's type is
        # renamed as text, which is the rewrite a rule would make
        self.assertEqual(blind(TEXT, ((3, 5),)), [])

    def test_the_note(self) -> None:
        r = Result("pf.c", TEXT, parse_errors=(15,), unparsed=((5, 13),))
        self.assertEqual(parse_note(TEXT, r), "spatch could not parse lines 5-13; tasklet API "
                         "in a function there (tasklet_struct at line 9) kept the file "
                         "unconverted")
        r = Result("pf.c", TEXT, parse_errors=(6,), unparsed=((3, 5),))
        self.assertEqual(parse_note(TEXT, r), "spatch could not parse lines 3-5; the tasklet "
                         "API there is outside functions (tasklet_struct at line 4): "
                         "declarations, whose type is renamed as text")
        r = Result("pf.c", TEXT, parse_errors=(11,), unparsed=((11, 11),))
        self.assertEqual(parse_note(TEXT, r), "spatch could not parse line 11; "
                         "no tasklet API is there")


if __name__ == "__main__":
    unittest.main()
