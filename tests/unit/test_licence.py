# SPDX-License-Identifier: GPL-2.0-only
"""The licence: COPYING is the GPL version 2, and every source file of the
project (.py, .sh, .cocci, .c, .h) says its licence in an SPDX line near
its top, as the kernel's own tooling does."""

import subprocess
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SUFFIXES = {".py", ".sh", ".cocci", ".c", ".h"}


def sources() -> list[Path]:
    """The project's source files: git's list in a checkout, else the
    folders the project keeps its code and tests in."""
    try:
        out = subprocess.run(["git", "-C", str(ROOT), "ls-files"], capture_output=True,
                             text=True, check=True).stdout.split()
        files = [ROOT / f for f in out]
    except (OSError, subprocess.CalledProcessError):
        files = [p for d in ("scripts", "tests", "cocci") for p in (ROOT / d).rglob("*")]
    return sorted(p for p in files if p.suffix in SUFFIXES and p.is_file())


class Licence(unittest.TestCase):
    def test_copying_is_gpl2(self) -> None:
        text = (ROOT / "COPYING").read_text()
        self.assertIn("GNU GENERAL PUBLIC LICENSE", text)
        self.assertIn("Version 2, June 1991", text)

    def test_every_source_file_has_an_spdx_line(self) -> None:
        files = sources()
        self.assertGreater(len(files), 100)
        missing = [str(p.relative_to(ROOT)) for p in files
                   if "SPDX-License-Identifier: GPL-2.0" not in
                   "".join(p.read_text(errors="replace").splitlines(True)[:2])]
        self.assertEqual(missing, [], "no SPDX line in the first two lines")
