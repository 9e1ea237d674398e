# SPDX-License-Identifier: GPL-2.0-only
"""Every module of ours that a comment or a document names exists: the
comments of cocci/ (the .cocci files), docs/*.md, README.md and the
docstrings under scripts/ and tests/ name our modules as paths
(`convert/facts/legacy.py`, `scripts/detasklet/convert/...`) or as dotted
names (`convert.verdicts.sites`); when a module moves, the text that still
names its old place fails here.

A path is ours when it ends in .py or .cocci; it resolves when it is a file
of the repository from its root, or the end of one (`verdicts/sites.py`,
`write.py`). A dotted name resolves when its second part is a module or a
folder of the package its first part names (convert, check, ctext, out).
Kernel files the texts name (`kernel/softirq.c`) are not ours and are not
checked; nor is the kernel's kunit.py."""

from __future__ import annotations

import ast
import re
import tempfile
import unittest
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PKG = ROOT / "scripts" / "detasklet"
# the kernel's tools/testing/kunit/kunit.py, named by the bench and test docs
EXTERNAL = frozenset({"kunit.py"})
_PATH = re.compile(r"(?<![\w./-])((?:[\w.-]+/)*[\w-]+\.(?:py|cocci))\b")
_DOTTED = re.compile(r"(?<![\w./-])(?:detasklet\.)?((?:convert|check|ctext|out)\.[a-z_]\w*)")
_SKIP = {".git", "cache", "__pycache__", "build"}


def repo_files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")
            if p.is_file() and not _SKIP & set(p.relative_to(root).parts)}


def docstrings(p: Path) -> Iterator[tuple[int, str]]:
    for n in ast.walk(ast.parse(p.read_text(), str(p))):
        if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            doc = ast.get_docstring(n, clean=False)
            if doc:
                line = getattr(n, "lineno", 1)
                yield from ((line, l) for l in doc.splitlines())


def texts(root: Path) -> Iterator[tuple[str, int, str]]:
    """(file, line, text) of each line that may name one of our paths."""
    for p in sorted(root.glob("cocci/**/*.cocci")):
        for i, l in enumerate(p.read_text().splitlines(), 1):
            if l.lstrip().startswith("//"):
                yield str(p.relative_to(root)), i, l
    for p in sorted(root.glob("docs/*.md")) + sorted(root.glob("README.md")):
        for i, l in enumerate(p.read_text().splitlines(), 1):
            yield str(p.relative_to(root)), i, l
    for p in sorted(root.glob("scripts/**/*.py")) + sorted(root.glob("tests/**/*.py")):
        if "__pycache__" not in p.parts:
            for i, l in docstrings(p):
                yield str(p.relative_to(root)), i, l


def path_exists(name: str, files: set[str]) -> bool:
    return name in EXTERNAL or name in files \
        or any(f.endswith("/" + name) for f in files)


def dotted_exists(name: str, pkg: Path) -> bool:
    first, second = name.split(".")[:2]
    return (pkg / first / second).is_dir() or (pkg / first / f"{second}.py").is_file()


def missing(root: Path) -> list[str]:
    files, pkg = repo_files(root), root / "scripts" / "detasklet"
    bad = []
    for f, i, l in texts(root):
        bad += [f"{f}:{i}: {m.group(1)}" for m in _PATH.finditer(l)
                if not path_exists(m.group(1), files)]
        bad += [f"{f}:{i}: {m.group(1)}" for m in _DOTTED.finditer(l)
                if not dotted_exists(m.group(1), pkg)]
    return bad


class NamedPaths(unittest.TestCase):
    def test_every_named_module_exists(self) -> None:
        self.assertEqual(missing(ROOT), [])

    def test_the_measure_sees_each_form(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            root = Path(d)
            (root / "cocci").mkdir()
            (root / "docs").mkdir()
            (root / "scripts/detasklet/convert/facts").mkdir(parents=True)
            (root / "scripts/detasklet/convert/facts/legacy.py").write_text(
                '"""Read by convert.facts.legacy; not convert.legacy."""\n')
            (root / "cocci/x.cocci").write_text(
                "// convert/legacy.py and convert/facts/legacy.py\n"
                "@@ identifier convert/old.py; @@\n")
            (root / "docs/x.md").write_text(
                "scripts/detasklet/convert/fixups.py, legacy.py, kunit.py,"
                " kernel/softirq.c\n")
            self.assertEqual(missing(root), [
                "cocci/x.cocci:1: convert/legacy.py",
                "docs/x.md:1: scripts/detasklet/convert/fixups.py",
                "scripts/detasklet/convert/facts/legacy.py:1: convert.legacy",
            ])


if __name__ == "__main__":
    unittest.main()
