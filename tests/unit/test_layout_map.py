# SPDX-License-Identifier: GPL-2.0-only
"""Each stage's folder can be read from its __init__: every module of
convert/, series/, check/, ctext/ and out/ is named in its folder's map."""

import re
import unittest
from pathlib import Path

PKG = Path(__file__).resolve().parents[2] / "scripts" / "detasklet"


class FolderMaps(unittest.TestCase):
    def test_every_module_is_in_its_folders_map(self) -> None:
        for folder in ("convert", "series", "check", "ctext", "out"):
            doc = (PKG / folder / "__init__.py").read_text()
            for mod in sorted((PKG / folder).glob("*.py")):
                if mod.name == "__init__.py":
                    continue
                with self.subTest(module=f"{folder}/{mod.name}"):
                    self.assertRegex(doc, r"\b" + re.escape(mod.stem) + r"\b",
                                     f"{folder}/__init__.py does not name {mod.stem}")
