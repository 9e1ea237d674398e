# SPDX-License-Identifier: GPL-2.0-only
"""decisions/*.toml: a reason is prose. The commit message wraps each
reason into one bullet, so a list inside it ('- masks ...;' lines) comes
out as '... steps: - masks ...; - erases ...' (i2c-bcm-iproc's did)."""

import re
import unittest

from detasklet.convert.verdicts import decisions


class DecisionTexts(unittest.TestCase):
    def test_no_list_inside_a_reason(self) -> None:
        for d in decisions.load():
            with self.subTest(source=d.source, function=d.function):
                self.assertIsNone(re.search(r"(?:^|[:;]\s*\n?)\s*[-*]\s", d.why, re.M), d.why)


if __name__ == "__main__":
    unittest.main()
