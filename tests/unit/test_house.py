# SPDX-License-Identifier: GPL-2.0-only
"""The house rules of scripts/, measured on the code itself (ast), so that
a change that breaks one fails here:

- one process layer: no module but detasklet/proc.py imports subprocess
  (or starts a program through os)."""

from __future__ import annotations

import ast
import re
import unittest
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
PKG = SCRIPTS / "detasklet"
PROC = PKG / "proc.py"
# os calls that start a program
_OS_START = re.compile(r"system|popen|spawn\w*|exec\w*|posix_spawn\w*|fork\w*")


def modules() -> list[Path]:
    return sorted(p for p in SCRIPTS.rglob("*.py") if "__pycache__" not in p.parts)


def tree(p: Path) -> ast.Module:
    return ast.parse(p.read_text(), str(p))


def rel(p: Path) -> str:
    return str(p.relative_to(SCRIPTS))


def starts_programs(mod: ast.Module) -> list[str]:
    """Where mod imports subprocess or calls os.system/popen/spawn*/exec*."""
    found = []
    for n in ast.walk(mod):
        if isinstance(n, ast.Import) and any(a.name.split(".")[0] == "subprocess"
                                             for a in n.names):
            found.append(f"{n.lineno}: import subprocess")
        elif isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] == "subprocess":
            found.append(f"{n.lineno}: from subprocess import")
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                and isinstance(n.func.value, ast.Name) and n.func.value.id == "os" \
                and _OS_START.fullmatch(n.func.attr):
            found.append(f"{n.lineno}: os.{n.func.attr}()")
    return found


class OneProcessLayer(unittest.TestCase):
    def test_only_proc_starts_programs(self) -> None:
        bad = {rel(p): f for p in modules() if p != PROC and (f := starts_programs(tree(p)))}
        self.assertEqual(bad, {}, "run programs through detasklet/proc.py")
        self.assertTrue(starts_programs(tree(PROC)), "proc.py is no longer the process layer")

    def test_the_measure_sees_each_way(self) -> None:
        mod = ast.parse("import subprocess as s\nfrom subprocess import run\nimport os\n"
                        "os.system('x')\nos.execvp('x', [])\nos.kill(1, 0)\n")
        self.assertEqual(len(starts_programs(mod)), 4)


if __name__ == "__main__":
    unittest.main()
