# SPDX-License-Identifier: GPL-2.0-only
"""check.arches: the one table of arches and their compilers; the Makefile
asks it rather than keeping a copy."""

import re
import subprocess
import sys
import unittest
from pathlib import Path

from detasklet.check.arches import ARCHES, DEFAULT_ARCHES, packages

ROOT = Path(__file__).resolve().parents[2]


class Arches(unittest.TestCase):
    def test_makefile_names_no_compiler_package(self) -> None:
        text = (ROOT / "Makefile").read_text()
        named = {a.package for a in ARCHES.values() if a.package != "gcc"}
        self.assertEqual([p for p in sorted(named) if re.search(r"\b" + p + r"\b", text)], [])

    def test_packages_of_some_arches(self) -> None:
        self.assertEqual(packages(["x86_64", "s390"]), ["gcc", "gcc-s390x-linux-gnu"])
        self.assertEqual(packages([]), sorted({ARCHES[a].package for a in DEFAULT_ARCHES}))

    def test_command_line_refuses_an_unknown_arch_in_one_line(self) -> None:
        r = subprocess.run([sys.executable, "-m", "detasklet.check.arches", "packages", "vax"],
                           capture_output=True, text=True, cwd=ROOT / "scripts")
        self.assertEqual(r.returncode, 2)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertIn("unknown arch vax", r.stderr)
