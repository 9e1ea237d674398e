# SPDX-License-Identifier: GPL-2.0-only
"""Each stage's folder can be read from its __init__: every module of
convert/ (and of each of its stage folders), series/, check/, ctext/ and
out/ is named in its folder's map, and convert/__init__.py names every
stage folder and every module under it."""

import re
import unittest
from pathlib import Path

PKG = Path(__file__).resolve().parents[2] / "scripts" / "detasklet"
CONVERT = PKG / "convert"


def named(doc: str, name: str) -> bool:
    return re.search(r"\b" + re.escape(name) + r"\b", doc) is not None


class FolderMaps(unittest.TestCase):
    def test_every_module_is_in_its_folders_map(self) -> None:
        folders = [PKG / f for f in ("convert", "series", "check", "ctext", "out")]
        folders += [d for d in sorted(CONVERT.iterdir()) if (d / "__init__.py").exists()]
        for folder in folders:
            doc = (folder / "__init__.py").read_text()
            for mod in sorted(folder.glob("*.py")):
                if mod.name == "__init__.py":
                    continue
                with self.subTest(module=str(mod.relative_to(PKG))):
                    self.assertTrue(named(doc, mod.stem),
                                    f"{folder.relative_to(PKG)}/__init__.py does not name {mod.stem}")

    def test_convert_map_names_every_stage_folder_and_its_modules(self) -> None:
        doc = (CONVERT / "__init__.py").read_text()
        stages = [d for d in sorted(CONVERT.iterdir()) if (d / "__init__.py").exists()]
        self.assertTrue(stages, "convert/ has no stage folder")
        for d in stages:
            with self.subTest(folder=d.name):
                self.assertIn(f" {d.name}/ ", doc, f"convert/__init__.py does not name {d.name}/")
            for mod in sorted(d.glob("*.py")):
                if mod.name != "__init__.py":
                    with self.subTest(module=f"{d.name}/{mod.name}"):
                        self.assertTrue(named(doc, mod.stem),
                                        f"convert/__init__.py does not name {d.name}/{mod.stem}")
